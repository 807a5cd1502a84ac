// serving_sim.hpp: a small, deterministic discrete-event simulation of continuous-batching LLM
// serving replicas. A TEST UTILITY, not part of gpucalc: it exists to check the analytic serving
// model (include/gpucalc/serving/) against something that does not share its assumptions.
// Standard library only, C++17. docs/serving.md ("The validating simulation") describes it.
//
// The model (every piece is stated, none is a measurement):
// - Requests arrive as a Poisson process at rate lambda (exponential inter-arrival times).
// - Each request has a prompt of P tokens and an output of D tokens (D >= 1). Lengths are fixed,
//   geometric (integer, >= 1, mean m) or, for prompts only, exponential (a real-valued token
//   count; prefill time is affine in P, so a real P is meaningful and gives exponential prefill
//   times, which the M/M/c self-check needs).
// - A replica has B batch slots. One decode step advances every running request by one token
//   and takes T(b) = t0 + t1*b seconds for b running requests. Prefilling a P-token prompt takes
//   p0 + p1*P seconds and produces the first output token, so a request then needs D - 1 steps.
// - Prefill modes:
//   stall:  a prefill takes the whole replica; no decode step runs meanwhile. Prefill has
//           priority: whenever a slot is free and a request waits, the replica prefills it next
//           (as vLLM's scheduler did by default before chunked prefill).
//   chunked: each step carries up to `chunk_budget` prompt tokens beside the decode batch
//           (Sarathi-Serve, Agrawal et al., OSDI 2024). Step time = t0 + t1*b + p1*c, where b is
//           the number of requests decoding in the step and c the prompt tokens it carries; p0
//           is not charged, since the step's fixed cost t0 is paid once. Prompts already in
//           prefill continue first, in admission order, then new requests are admitted while a
//           slot and budget remain. A prompt whose last chunk runs in a step emits its first
//           token at the end of that step.
//   disaggregated: prefill runs on a separate pool of `prefill_servers` servers shared by all
//           replicas, FIFO in arrival order (DistServe, Zhong et al., OSDI 2024); the KV transfer
//           is free. After its prefill a request is routed to a replica and waits for a decode
//           slot; slots hold decode only. A request with D = 1 is done after its prefill.
// - Routing across R replicas (at arrival; in disaggregated mode, when the prefill ends):
//   round_robin; join_shortest_queue (fewest requests in the replica, waiting + in a slot);
//   join_shortest_waiting (fewest requests that have not yet had their first token; ties go to
//   the replica with fewer requests in all). Remaining ties go to the lowest index. In
//   disaggregated mode every routed request has had its first token, so the last is JSQ there.
// - Replicas admit at step boundaries only: a request that arrives during a step waits for it.
//
// Determinism: the random numbers come from SplitMix64 (Steele, Lea and Flood, "Fast
// splittable pseudorandom number generators", OOPSLA 2014) and inverse-CDF transforms written
// here, not from <random>'s distributions, whose algorithms differ between standard libraries.
// Events at equal times are ordered by creation. Results are bit-identical across compilers
// that share a math library (std::log1p is the only libm call).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <limits>
#include <queue>
#include <stdexcept>
#include <string>
#include <vector>

namespace gpucalc_test::sim {

// SplitMix64 (Steele, Lea and Flood 2014): a Weyl sequence with the golden-ratio increment, then
// a 64-bit finaliser with David Stafford's "Mix13" constants, as in Java's SplittableRandom and
// Vigna's reference splitmix64.c. 64 bits of state; integer arithmetic, so identical everywhere.
class splitmix64 {
public:
    explicit splitmix64(std::uint64_t seed) : state_{seed} {}
    std::uint64_t next() {
        state_ += 0x9E3779B97F4A7C15ULL;
        std::uint64_t z = state_;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return z ^ (z >> 31);
    }
    // Uniform in [0, 1): the top 53 bits as a double's mantissa.
    double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
    // Exponential with the given mean by inverse CDF: -mean * ln(1 - U), U in [0, 1).
    double exponential(double mean) { return -mean * std::log1p(-uniform()); }
    // Geometric on {1, 2, ...} with the given mean m >= 1 (success probability q = 1/m), by
    // inverse CDF: 1 + floor(ln(1 - U) / ln(1 - q)).
    double geometric(double mean) {
        if (mean <= 1.0) return 1.0;
        const double q = 1.0 / mean;
        return 1.0 + std::floor(std::log1p(-uniform()) / std::log1p(-q));
    }

private:
    std::uint64_t state_;
};

enum class prefill_mode { stall, chunked, disaggregated };
enum class routing { round_robin, join_shortest_queue, join_shortest_waiting };
enum class length_kind { fixed, geometric, exponential };

struct lengths {
    length_kind kind = length_kind::fixed;
    double mean = 1.0;  // tokens; the value itself when fixed
};

struct config {
    double arrival_rate = 1.0;        // lambda, requests/s, > 0
    int replicas = 1;                 // R >= 1
    int slots = 1;                    // B, batch slots per replica, >= 1
    lengths prompt{length_kind::fixed, 512.0};   // P, tokens, >= 0
    lengths output{length_kind::fixed, 256.0};   // D, tokens, >= 1; not exponential
    double step_base = 0.0;           // t0, s
    double step_per_request = 0.0;    // t1, s per running request
    double prefill_base = 0.0;        // p0, s per prefill
    double prefill_per_token = 0.0;   // p1, s per prompt token
    prefill_mode mode = prefill_mode::stall;
    double chunk_budget = 512.0;      // prompt tokens per step, chunked mode, > 0
    int prefill_servers = 1;          // disaggregated mode's pool size, >= 1
    routing route = routing::round_robin;
    double warmup = 0.0;              // s; requests arriving earlier are not measured
    double duration = 1.0;            // s; the measurement window [warmup, warmup + duration)
    double drain_limit = -1.0;        // s after the window to let measured requests finish;
                                      // < 0 means one more `duration`
    std::uint64_t seed = 1;
};

// Mean and nearest-rank percentiles of a sample (all zero when the sample is empty).
struct summary {
    std::size_t count = 0;
    double mean = 0.0;
    double p50 = 0.0;
    double p90 = 0.0;
    double p99 = 0.0;
    double max = 0.0;
};

inline summary summarize(std::vector<double> v) {
    summary s;
    s.count = v.size();
    if (v.empty()) return s;
    std::sort(v.begin(), v.end());
    double sum = 0.0;
    for (const double x : v) sum += x;
    s.mean = sum / static_cast<double>(v.size());
    const auto rank = [&](double q) {  // nearest rank: the ceil(q n)-th smallest
        const double n = static_cast<double>(v.size());
        auto i = static_cast<std::size_t>(std::ceil(q * n));
        if (i < 1) i = 1;
        return v[std::min(i, v.size()) - 1];
    };
    s.p50 = rank(0.50);
    s.p90 = rank(0.90);
    s.p99 = rank(0.99);
    s.max = v.back();
    return s;
}

struct result {
    // Whole run: every request that arrived, completed, or was still in the system at the end.
    std::uint64_t arrived = 0;
    std::uint64_t completed = 0;
    std::uint64_t in_system = 0;
    // Measured requests: those arriving in the window; `unfinished` of them were still in the
    // system when the run stopped (a sign of overload; their latencies are not in the samples).
    std::uint64_t measured = 0;
    std::uint64_t unfinished = 0;
    summary ttft;     // arrival to first token, s
    summary tpot;     // (completion - first token) / (D - 1), s, requests with D > 1
    summary wait;     // arrival to the start of prefill (chunked: admission to a slot), s
    summary sojourn;  // arrival to completion, s
    double p_wait = 0.0;  // fraction of measured requests whose wait was > 0
    // Over the window: completions per second, output tokens generated per second, measured
    // arrivals per second, and time averages.
    double throughput_requests = 0.0;
    double throughput_tokens = 0.0;
    double arrival_rate = 0.0;
    double mean_in_system = 0.0;   // requests in the system (waiting, prefilling or decoding)
    double mean_waiting = 0.0;     // requests not yet started (the queue in Little's L_q)
    double mean_occupied_slots = 0.0;   // per replica
    double utilization = 0.0;      // fraction of replica time spent running a step or prefill
    double prefill_utilization = 0.0;   // disaggregated mode: the pool's busy fraction
    double end_time = 0.0;
};

namespace detail {

struct request {
    double arrival = 0.0;
    double prompt = 0.0;
    std::int64_t output = 1;
    double start = -1.0;        // prefill start / admission
    double first_token = -1.0;
    double prefill_left = 0.0;  // chunked mode
    std::int64_t decode_left = 0;
    int replica = -1;
    bool measured = false;
    bool first_done = false;
};

struct replica_state {
    std::deque<std::size_t> waiting;   // routed here, not yet in a slot
    std::vector<std::size_t> running;  // in a slot (chunked: including those still in prefill)
    bool busy = false;
    // The activity in progress.
    std::size_t prefilling = 0;            // stall mode: the request being prefilled
    bool is_prefill = false;               // stall mode: prefill rather than decode step
    std::vector<std::size_t> decoding;     // requests advanced by the current step
    std::vector<std::pair<std::size_t, double>> chunks;  // chunked: (request, tokens)
    std::size_t before_first_token = 0;    // routed here and without a first token yet
};

struct event {
    double time;
    std::uint64_t seq;
    int kind;   // 0 arrival, 1 replica activity ends, 2 prefill server ends
    int index;  // replica or server
};
struct later {
    bool operator()(const event& a, const event& b) const {
        if (a.time != b.time) return a.time > b.time;
        return a.seq > b.seq;
    }
};

// A piecewise-constant quantity's integral over the window [lo, hi).
struct integrator {
    double lo = 0.0, hi = 0.0, value = 0.0, last = 0.0, area = 0.0;
    void set(double now, double v) {
        const double a = std::max(last, lo);
        const double b = std::min(now, hi);
        if (b > a) area += value * (b - a);
        last = now;
        value = v;
    }
};

inline double overlap(double a, double b, double lo, double hi) {
    return std::max(0.0, std::min(b, hi) - std::max(a, lo));
}

class engine {
public:
    explicit engine(const config& c) : c_{c}, rng_{c.seed} {
        validate();
        lo_ = c_.warmup;
        hi_ = c_.warmup + c_.duration;
        stop_ = hi_ + (c_.drain_limit < 0.0 ? c_.duration : c_.drain_limit);
        for (integrator* g : {&in_system_, &waiting_, &occupied_}) {
            g->lo = lo_;
            g->hi = hi_;
        }
        replicas_.resize(static_cast<std::size_t>(c_.replicas));
        server_job_.assign(static_cast<std::size_t>(c_.prefill_servers), none);
    }

    result run() {
        push(rng_.exponential(1.0 / c_.arrival_rate), 0, 0);
        while (!events_.empty()) {
            const event e = events_.top();
            if (e.time > stop_) break;
            if (e.time >= hi_ && outstanding_ == 0) break;
            events_.pop();
            now_ = e.time;
            if (e.kind == 0) arrive();
            else if (e.kind == 1) replica_done(static_cast<std::size_t>(e.index));
            else server_done(static_cast<std::size_t>(e.index));
        }
        return finish();
    }

private:
    static constexpr std::size_t none = std::numeric_limits<std::size_t>::max();

    void validate() const {
        const auto bad = [](const std::string& what) {
            throw std::invalid_argument("serving_sim: " + what);
        };
        if (!(c_.arrival_rate > 0.0) || !std::isfinite(c_.arrival_rate)) bad("arrival_rate > 0");
        if (c_.replicas < 1 || c_.slots < 1 || c_.prefill_servers < 1) bad("counts >= 1");
        if (!(c_.prompt.mean >= 0.0)) bad("prompt mean >= 0");
        if (!(c_.output.mean >= 1.0) || c_.output.kind == length_kind::exponential)
            bad("output: mean >= 1, fixed or geometric");
        if (c_.step_base < 0.0 || c_.step_per_request < 0.0 || c_.prefill_base < 0.0 ||
            c_.prefill_per_token < 0.0)
            bad("times >= 0");
        if (!(c_.chunk_budget > 0.0)) bad("chunk_budget > 0");
        if (c_.warmup < 0.0 || !(c_.duration > 0.0)) bad("warmup >= 0, duration > 0");
    }

    double draw(const lengths& l) {
        switch (l.kind) {
        case length_kind::fixed: return l.mean;
        case length_kind::geometric: return rng_.geometric(l.mean);
        case length_kind::exponential: return rng_.exponential(l.mean);
        }
        return l.mean;
    }

    void push(double t, int kind, int index) { events_.push(event{t, seq_++, kind, index}); }

    std::size_t allocate() {
        if (!free_.empty()) {
            const std::size_t id = free_.back();
            free_.pop_back();
            reqs_[id] = request{};
            return id;
        }
        reqs_.emplace_back();
        return reqs_.size() - 1;
    }

    void count_changed() {
        in_system_.set(now_, static_cast<double>(arrived_ - completed_));
        waiting_.set(now_, static_cast<double>(not_started_));
        occupied_.set(now_, static_cast<double>(occupied_count_));
    }

    void arrive() {
        push(now_ + rng_.exponential(1.0 / c_.arrival_rate), 0, 0);
        const std::size_t id = allocate();
        request& r = reqs_[id];
        r.arrival = now_;
        r.prompt = draw(c_.prompt);
        r.output = static_cast<std::int64_t>(draw(c_.output));
        r.measured = now_ >= lo_ && now_ < hi_;
        if (r.measured) {
            ++measured_;
            ++outstanding_;
        }
        ++arrived_;
        ++not_started_;
        count_changed();
        if (c_.mode == prefill_mode::disaggregated) {
            pool_waiting_.push_back(id);
            start_servers();
        } else {
            const std::size_t k = route();
            reqs_[id].replica = static_cast<int>(k);
            replicas_[k].waiting.push_back(id);
            ++replicas_[k].before_first_token;
            if (!replicas_[k].busy) kick(k);
        }
    }

    std::size_t route() {
        const std::size_t n = replicas_.size();
        if (c_.route == routing::round_robin) return next_rr_++ % n;
        std::size_t best = 0;
        for (std::size_t k = 1; k < n; ++k) {
            const replica_state& a = replicas_[k];
            const replica_state& b = replicas_[best];
            const std::size_t ta = a.waiting.size() + a.running.size();
            const std::size_t tb = b.waiting.size() + b.running.size();
            if (c_.route == routing::join_shortest_queue) {
                if (ta < tb) best = k;
            } else if (a.before_first_token < b.before_first_token ||
                       (a.before_first_token == b.before_first_token && ta < tb)) {
                best = k;
            }
        }
        return best;
    }

    void started(request& r) {
        r.start = now_;
        --not_started_;
        if (r.measured) waits_.push_back(now_ - r.arrival);
    }

    void first_token(request& r) {
        r.first_done = true;
        r.first_token = now_;
        r.decode_left = r.output - 1;
        if (now_ >= lo_ && now_ < hi_) ++tokens_in_window_;
        if (r.measured) ttfts_.push_back(now_ - r.arrival);
    }

    void decoded(request& r) {
        --r.decode_left;
        if (now_ >= lo_ && now_ < hi_) ++tokens_in_window_;
    }

    void complete(std::size_t id) {
        request& r = reqs_[id];
        ++completed_;
        if (now_ >= lo_ && now_ < hi_) ++completed_in_window_;
        if (r.measured) {
            --outstanding_;
            sojourns_.push_back(now_ - r.arrival);
            if (r.output > 1)
                tpots_.push_back((now_ - r.first_token) / static_cast<double>(r.output - 1));
        }
        free_.push_back(id);
        count_changed();
    }

    // Removes the finished requests from a replica's slots and completes them.
    // In place, keeping the others' order (admission order).
    void release_finished(replica_state& rep) {
        std::size_t kept = 0;
        for (std::size_t i = 0; i < rep.running.size(); ++i) {
            const std::size_t id = rep.running[i];
            const request& r = reqs_[id];
            if (r.first_done && r.decode_left == 0) {
                --occupied_count_;
                complete(id);
            } else {
                rep.running[kept++] = id;
            }
        }
        rep.running.resize(kept);
    }

    void occupy(replica_state& rep, std::size_t id) {
        rep.running.push_back(id);
        ++occupied_count_;
        count_changed();
    }

    void begin(std::size_t k, double duration) {
        replica_state& rep = replicas_[k];
        rep.busy = true;
        busy_time_ += overlap(now_, now_ + duration, lo_, hi_);
        push(now_ + duration, 1, static_cast<int>(k));
    }

    double step_time(std::size_t b) const {
        return c_.step_base + c_.step_per_request * static_cast<double>(b);
    }

    // Starts the replica's next activity, if it has one.
    void kick(std::size_t k) {
        replica_state& rep = replicas_[k];
        const auto slots = static_cast<std::size_t>(c_.slots);
        rep.busy = false;
        rep.decoding.clear();
        rep.chunks.clear();
        if (c_.mode == prefill_mode::stall) {
            if (!rep.waiting.empty() && rep.running.size() < slots) {
                const std::size_t id = rep.waiting.front();
                rep.waiting.pop_front();
                started(reqs_[id]);
                occupy(rep, id);
                rep.is_prefill = true;
                rep.prefilling = id;
                begin(k, c_.prefill_base + c_.prefill_per_token * reqs_[id].prompt);
            } else if (!rep.running.empty()) {
                rep.is_prefill = false;
                rep.decoding = rep.running;
                begin(k, step_time(rep.decoding.size()));
            }
        } else if (c_.mode == prefill_mode::chunked) {
            double budget = c_.chunk_budget;
            double tokens = 0.0;
            for (const std::size_t id : rep.running) {
                const request& r = reqs_[id];
                if (r.first_done) {
                    rep.decoding.push_back(id);
                } else if (budget > 0.0) {
                    const double take = std::min(budget, r.prefill_left);
                    rep.chunks.emplace_back(id, take);
                    budget -= take;
                    tokens += take;
                }
            }
            while (budget > 0.0 && !rep.waiting.empty() && rep.running.size() < slots) {
                const std::size_t id = rep.waiting.front();
                rep.waiting.pop_front();
                request& r = reqs_[id];
                started(r);
                occupy(rep, id);
                r.prefill_left = r.prompt;
                const double take = std::min(budget, r.prefill_left);
                rep.chunks.emplace_back(id, take);
                budget -= take;
                tokens += take;
            }
            if (!rep.decoding.empty() || !rep.chunks.empty())
                begin(k, step_time(rep.decoding.size()) + c_.prefill_per_token * tokens);
        } else {  // disaggregated: decode only; admission at step boundaries
            while (!rep.waiting.empty() && rep.running.size() < slots) {
                const std::size_t id = rep.waiting.front();
                rep.waiting.pop_front();
                occupy(rep, id);
            }
            if (!rep.running.empty()) {
                rep.decoding = rep.running;
                begin(k, step_time(rep.decoding.size()));
            }
        }
    }

    void replica_done(std::size_t k) {
        replica_state& rep = replicas_[k];
        if (c_.mode == prefill_mode::stall && rep.is_prefill) {
            first_token(reqs_[rep.prefilling]);
            --rep.before_first_token;
        }
        for (const std::size_t id : rep.decoding) decoded(reqs_[id]);
        for (const auto& [id, take] : rep.chunks) {
            request& r = reqs_[id];
            r.prefill_left = take >= r.prefill_left ? 0.0 : r.prefill_left - take;
            if (r.prefill_left == 0.0) {
                first_token(r);
                --rep.before_first_token;
            }
        }
        release_finished(rep);
        kick(k);
    }

    void start_servers() {
        for (std::size_t s = 0; s < server_job_.size() && !pool_waiting_.empty(); ++s) {
            if (server_job_[s] != none) continue;
            const std::size_t id = pool_waiting_.front();
            pool_waiting_.pop_front();
            server_job_[s] = id;
            started(reqs_[id]);
            const double d = c_.prefill_base + c_.prefill_per_token * reqs_[id].prompt;
            pool_busy_ += overlap(now_, now_ + d, lo_, hi_);
            push(now_ + d, 2, static_cast<int>(s));
            count_changed();
        }
    }

    void server_done(std::size_t s) {
        const std::size_t id = server_job_[s];
        server_job_[s] = none;
        request& r = reqs_[id];
        first_token(r);
        if (r.decode_left == 0) {
            complete(id);
        } else {
            const std::size_t k = route();
            r.replica = static_cast<int>(k);
            replicas_[k].waiting.push_back(id);
            if (!replicas_[k].busy) kick(k);
        }
        start_servers();
    }

    result finish() {
        now_ = std::max(now_, hi_);
        count_changed();
        result out;
        out.arrived = arrived_;
        out.completed = completed_;
        // Counted where the requests are, not derived from the counters above, so that the
        // conservation check (arrived == completed + in_system) can fail.
        std::uint64_t counted = pool_waiting_.size();
        for (const std::size_t id : server_job_) counted += id == none ? 0U : 1U;
        for (const replica_state& rep : replicas_) counted += rep.waiting.size() + rep.running.size();
        out.in_system = counted;
        out.measured = measured_;
        out.unfinished = outstanding_;
        out.ttft = summarize(ttfts_);
        out.tpot = summarize(tpots_);
        out.sojourn = summarize(sojourns_);
        std::size_t waited = 0;
        for (const double w : waits_) waited += w > 0.0 ? 1U : 0U;
        out.p_wait = waits_.empty() ? 0.0
                                    : static_cast<double>(waited) /
                                          static_cast<double>(waits_.size());
        out.wait = summarize(std::move(waits_));
        const double L = c_.duration;
        const double R = static_cast<double>(c_.replicas);
        out.throughput_requests = static_cast<double>(completed_in_window_) / L;
        out.throughput_tokens = static_cast<double>(tokens_in_window_) / L;
        out.arrival_rate = static_cast<double>(measured_) / L;
        out.mean_in_system = in_system_.area / L;
        out.mean_waiting = waiting_.area / L;
        out.mean_occupied_slots = occupied_.area / L / R;
        out.utilization = busy_time_ / (L * R);
        out.prefill_utilization = pool_busy_ / (L * static_cast<double>(c_.prefill_servers));
        out.end_time = now_;
        return out;
    }

    config c_;
    splitmix64 rng_;
    double lo_ = 0.0, hi_ = 0.0, stop_ = 0.0, now_ = 0.0;
    std::priority_queue<event, std::vector<event>, later> events_;
    std::uint64_t seq_ = 0;
    std::vector<request> reqs_;
    std::vector<std::size_t> free_;
    std::vector<replica_state> replicas_;
    std::deque<std::size_t> pool_waiting_;
    std::vector<std::size_t> server_job_;
    std::size_t next_rr_ = 0;
    std::uint64_t arrived_ = 0, completed_ = 0, measured_ = 0, outstanding_ = 0;
    std::uint64_t not_started_ = 0, occupied_count_ = 0;
    std::uint64_t completed_in_window_ = 0, tokens_in_window_ = 0;
    double busy_time_ = 0.0, pool_busy_ = 0.0;
    integrator in_system_, waiting_, occupied_;
    std::vector<double> ttfts_, tpots_, waits_, sojourns_;
};

}  // namespace detail

// Runs one simulation. Throws std::invalid_argument on a configuration outside the stated
// ranges (this is a test utility; gpucalc's invalid_input is for the library).
inline result simulate(const config& c) { return detail::engine{c}.run(); }

}  // namespace gpucalc_test::sim
