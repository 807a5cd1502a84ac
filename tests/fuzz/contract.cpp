// contract.cpp: gpucalc_fuzz, the fuzz run. Drives every entry point of the table
// (entry_points.hpp) with random and hostile input and checks each call against the contract
// (fuzz.hpp). It never stops at a finding: findings are classified, de-duplicated by (entry
// point, kind, field) and printed at the end with one reproducing call each.
//
// Each entry point runs in a child process, so a crash or a sanitizer report (ASan and UBSan
// abort with -fno-sanitize-recover) ends only that child: the parent records it against the
// call the child was making, which it reads from shared memory, and resumes at the next call.
// The parent also watches the child's progress: a call that does not return within
// --hang-seconds is a hang, recorded the same way.
//
// A run that reaches --time-limit (set below ctest's TIMEOUT) stops there and says which entry
// point and call it was making, so a slow machine reads as such rather than as a bare timeout.
//
//   gpucalc_fuzz [--seed N] [--calls N] [--only TEXT] [--hang-seconds S] [--time-limit S]
//                [--verbose]
//   gpucalc_fuzz --list
//   gpucalc_fuzz [--seed N] --replay LABEL INDEX     one call, in this process, printed
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>
#include <vector>

#include "entry_points.hpp"
#include "inspect.hpp"
#include "repr.hpp"

#ifndef GPUCALC_FUZZ_DEFAULT_CALLS
#define GPUCALC_FUZZ_DEFAULT_CALLS 300000
#endif

namespace {

using fuzz::call_outcome;
using fuzz::entry_point;
using fuzz::generator;

constexpr std::uint64_t default_seed = 20260101;
constexpr int max_entries = 512;
constexpr int max_findings = 4096;
constexpr int max_restarts = 64;  // crashes or hangs per entry point before it is abandoned

/// One finding, as the child writes it into memory it shares with the parent.
struct shared_finding {
    int entry;
    char kind[64];
    char field[192];
    char detail[512];
    std::int64_t first_call;
    std::int64_t count;
};

struct shared_stats {
    std::int64_t calls;
    std::int64_t accepted;
    std::int64_t rejected;
    std::int64_t other;
    std::int64_t skipped;
    double slowest_seconds;
    std::int64_t slowest_call;
};

struct shared_state {
    std::atomic<std::int64_t> current_call;  ///< the call the child is making
    std::atomic<std::int64_t> heartbeat;     ///< advances with every call
    std::atomic<int> findings;
    shared_stats stats[max_entries];
    shared_finding finding[max_findings];
};

shared_state* shared = nullptr;

std::chrono::steady_clock::time_point run_started;
bool out_of_time = false;  ///< the run reached --time-limit and stopped

struct options {
    std::uint64_t seed = default_seed;
    std::int64_t calls = GPUCALC_FUZZ_DEFAULT_CALLS;
    std::string only;
    double hang_seconds = 5.0;
    double time_limit = 0.0;  ///< seconds for the whole run; 0: none
    bool verbose = false;
    bool list = false;
    std::string replay_label;
    std::int64_t replay_index = -1;
};

void copy_text(char* to, std::size_t size, const std::string& text) {
    const std::size_t n = std::min(size - 1, text.size());
    std::memcpy(to, text.data(), n);
    to[n] = '\0';
}

/// Records a finding, or counts it again when (entry point, kind, field) is already known.
void record(int entry, const std::string& kind, const std::string& field,
            const std::string& detail, std::int64_t call) {
    char kind_text[sizeof shared_finding::kind];
    char field_text[sizeof shared_finding::field];
    copy_text(kind_text, sizeof kind_text, kind);
    copy_text(field_text, sizeof field_text, field);
    const int n = shared->findings.load();
    for (int i = 0; i < n; ++i) {
        shared_finding& f = shared->finding[i];
        if (f.entry == entry && std::strcmp(f.kind, kind_text) == 0 &&
            std::strcmp(f.field, field_text) == 0) {
            ++f.count;
            return;
        }
    }
    if (n >= max_findings) return;
    shared_finding& f = shared->finding[n];
    f.entry = entry;
    std::memcpy(f.kind, kind_text, sizeof kind_text);
    std::memcpy(f.field, field_text, sizeof field_text);
    copy_text(f.detail, sizeof f.detail, detail);
    f.first_call = call;
    f.count = 1;
    shared->findings.store(n + 1);
}

generator make_generator(const options& o, const entry_point& e, std::int64_t index,
                         int valid_enum = generator::none_valid) {
    generator g(fuzz::call_seed(o.seed, e.label, index), fuzz::profile::contract, valid_enum);
    g.pinned = index < e.pins ? static_cast<int>(index) : -1;
    return g;
}

/// "peak" from "peak: precision = fp8 is not supported by ...": the function a message names.
std::string message_function(const std::string& message) {
    const std::size_t at = message.find(": ");
    return message.substr(0, std::min<std::size_t>(at == std::string::npos ? 60 : at, 120));
}

/// One call, checked; what breaks the contract is recorded.
void run_call(const options& o, const std::vector<entry_point>& table, int entry,
              std::int64_t index) {
    const entry_point& e = table[static_cast<std::size_t>(entry)];
    shared_stats& s = shared->stats[entry];
    generator g = make_generator(o, e, index);
    const auto started = std::chrono::steady_clock::now();
    const call_outcome out = e.run(g);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    if (seconds > s.slowest_seconds) {
        s.slowest_seconds = seconds;
        s.slowest_call = index;
    }
    ++s.calls;
    switch (out.what) {
        case call_outcome::kind::accepted: {
            ++s.accepted;
            for (const fuzz::issue& i : out.issues) record(entry, i.kind, i.field, i.detail, index);
            if (!out.explicit_unknown) {
                // Was an out-of-range enum read? The same call with that one enum valid tells:
                // a different answer (or none) means the value was used.
                for (std::size_t k = 0; k < g.hostile_enum_fields.size(); ++k) {
                    generator valid = make_generator(o, e, index, static_cast<int>(k));
                    const call_outcome again = e.run(valid);
                    if (again.what != call_outcome::kind::accepted ||
                        again.fingerprint != out.fingerprint) {
                        record(entry, "out-of-range enum accepted", g.hostile_enum_fields[k],
                               "accepted, and the answer differs from the same call with " +
                                   g.hostile_enum_fields[k] + " valid",
                               index);
                    }
                }
            }
            break;
        }
        case call_outcome::kind::rejected: {
            ++s.rejected;
            const std::string expected = e.function + ": ";
            if (out.message.compare(0, expected.size(), expected) != 0) {
                record(entry, "message names another function", message_function(out.message),
                       out.message, index);
            } else if (out.message.find(" = ") == std::string::npos) {
                record(entry, "message names no field", "", out.message, index);
            }
            if (g.pinned >= 0 && e.pins_answered) {
                record(entry, "regression input rejected", message_function(out.message),
                       out.message, index);
            }
            break;
        }
        case call_outcome::kind::other_exception: {
            ++s.other;
            record(entry, "exception other than invalid_input",
                   out.message.substr(0, out.message.find(':')), out.message, index);
            break;
        }
        case call_outcome::kind::skipped: ++s.skipped; break;
    }
}

/// Where a report points: the first path in gpucalc's headers (or in the harness, whose own
/// bug it would then be), as file:line.
std::string location_in(const std::string& text) {
    for (const char* root : {"include/gpucalc/", "tests/fuzz/"}) {
        const std::size_t at = text.find(root);
        if (at == std::string::npos) continue;
        std::size_t end = at;
        while (end < text.size() && text[end] != ' ' && text[end] != '\n') ++end;
        std::string where = text.substr(at, end - at);
        // include/gpucalc/catalog/../model/shape.hpp reads include/gpucalc/model/shape.hpp.
        for (std::size_t up; (up = where.find("/../")) != std::string::npos;) {
            const std::size_t parent = where.rfind('/', up - 1);
            where.erase(parent == std::string::npos ? 0 : parent, up + 3 - parent);
        }
        const std::size_t first = where.find(':');
        const std::size_t second = first == std::string::npos ? first : where.find(':', first + 1);
        return second == std::string::npos ? where : where.substr(0, second);
    }
    return {};
}

std::string without_newline(std::string s) {
    while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.pop_back();
    return s;
}

/// What a dead child's stderr says: the sanitizer's kind of error, the line of gpucalc it names,
/// and the report's key line. UBSan (GCC's prints no SUMMARY) reports "path:line:col: runtime
/// error: what: details"; ASan "SUMMARY: AddressSanitizer: kind path:line in function".
void describe_death(FILE* report, int status, std::string& kind, std::string& field,
                    std::string& detail, std::string& full) {
    std::rewind(report);
    char line[4096];
    std::string summary, runtime_error, first_frame;
    while (std::fgets(line, sizeof line, report) != nullptr) {
        const std::string text(line);
        if (full.size() < 16000) full += text;
        if (summary.empty() && text.find("SUMMARY: ") != std::string::npos) summary = text;
        if (runtime_error.empty() && text.find("runtime error: ") != std::string::npos) {
            runtime_error = text;
        }
        if (first_frame.empty() && text.find(" in ") != std::string::npos &&
            !location_in(text).empty()) {
            first_frame = text;
        }
    }
    if (!runtime_error.empty()) {
        // The kind of undefined behaviour without its values: "signed integer overflow",
        // "reference binding to null pointer", "load of value", ...
        const std::string text = runtime_error.substr(runtime_error.find("runtime error: ") + 15);
        std::string what = text.substr(0, text.find_first_of(":,'0123456789"));
        if (text.find("is outside the range of representable values") != std::string::npos) {
            what = "floating-point value out of range of the integer type";
        }
        const std::size_t of_type = what.find(" of type");
        if (of_type != std::string::npos) what.erase(of_type);
        while (!what.empty() && what.back() == ' ') what.pop_back();
        kind = "undefined behaviour: " + what;
        field = location_in(runtime_error);
        detail = without_newline(runtime_error.substr(runtime_error.find("runtime error: ")));
    } else if (!summary.empty()) {
        const std::size_t at = summary.find("SUMMARY: ") + 9;
        const std::size_t space = summary.find(' ', summary.find(':', at) + 2);
        kind = without_newline(summary.substr(at, space - at));
        field = location_in(first_frame);
        if (field.empty()) field = location_in(summary);
        detail = without_newline(first_frame.empty() ? summary : first_frame);
        const std::size_t in = detail.find(" in ");
        if (in != std::string::npos) detail = detail.substr(in + 4);
    } else if (WIFSIGNALED(status)) {
        kind = "crash: signal " + std::to_string(WTERMSIG(status));
        field = location_in(first_frame);
        detail = strsignal(WTERMSIG(status));
    } else {
        kind = "crash: exit " + std::to_string(WEXITSTATUS(status));
        field = location_in(first_frame);
        detail = without_newline(full.substr(0, 400));
    }
}

/// Runs calls [0, count) of one entry point, in children, resuming after each crash or hang.
void run_entry(const options& o, const std::vector<entry_point>& table, int entry,
               std::int64_t count) {
    std::int64_t start = 0;
    int restarts = 0;
    while (start < count) {
        FILE* report = std::tmpfile();
        std::fflush(stdout);
        std::fflush(stderr);
        shared->current_call.store(start);
        // The child holds the pipe's write end until it dies, however it dies: the parent's
        // poll() then wakes at once, and otherwise every 100 ms to watch the heartbeat.
        int alive[2];
        if (pipe(alive) != 0) {
            std::perror("pipe");
            std::exit(2);
        }
        const pid_t pid = fork();
        if (pid < 0) {
            std::perror("fork");
            std::exit(2);
        }
        if (pid == 0) {
            close(alive[0]);
            if (report != nullptr) dup2(fileno(report), 2);
            for (std::int64_t i = start; i < count; ++i) {
                shared->current_call.store(i);
                shared->heartbeat.fetch_add(1);
                run_call(o, table, entry, i);
            }
            std::fflush(stderr);
            _exit(0);
        }
        close(alive[1]);
        int status = 0;
        bool hung = false;
        std::int64_t beat = shared->heartbeat.load();
        auto last_change = std::chrono::steady_clock::now();
        for (;;) {
            pollfd watch{alive[0], POLLIN, 0};
            if (poll(&watch, 1, 100) > 0) break;  // the child has exited or died
            const std::int64_t now_beat = shared->heartbeat.load();
            const auto now = std::chrono::steady_clock::now();
            if (now_beat != beat) {
                beat = now_beat;
                last_change = now;
            } else if (std::chrono::duration<double>(now - last_change).count() > o.hang_seconds) {
                kill(pid, SIGKILL);
                hung = true;
                break;
            }
            if (o.time_limit > 0.0 &&
                std::chrono::duration<double>(now - run_started).count() > o.time_limit) {
                kill(pid, SIGKILL);
                out_of_time = true;
                break;
            }
        }
        waitpid(pid, &status, 0);
        close(alive[0]);
        const std::int64_t at = shared->current_call.load();
        if (out_of_time) {
            std::printf("time limit of %g s reached in %s, call %lld of %lld; the run stops here\n",
                        o.time_limit, table[static_cast<std::size_t>(entry)].label.c_str(),
                        static_cast<long long>(at), static_cast<long long>(count));
            if (report != nullptr) std::fclose(report);
            return;
        }
        if (!hung && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
            if (report != nullptr) std::fclose(report);
            break;
        }
        ++shared->stats[entry].calls;  // the call that never returned
        if (hung) {
            char text[64];
            std::snprintf(text, sizeof text, "no answer within %g s", o.hang_seconds);
            record(entry, "hang", "", text, at);
        } else {
            std::string kind, field, detail, full;
            if (report != nullptr) describe_death(report, status, kind, field, detail, full);
            const int before = shared->findings.load();
            record(entry, kind, field, detail, at);
            if (o.verbose || shared->findings.load() > before) {
                std::printf("  -- %s, call %lld: %s\n",
                            table[static_cast<std::size_t>(entry)].label.c_str(),
                            static_cast<long long>(at), kind.c_str());
                if (o.verbose) std::printf("%s\n", full.c_str());
            }
        }
        if (report != nullptr) std::fclose(report);
        start = at + 1;
        if (++restarts >= max_restarts) {
            record(entry, "abandoned", "",
                   std::to_string(max_restarts) + " crashes or hangs; calls " +
                       std::to_string(start) + " to " + std::to_string(count) + " not run",
                   at);
            break;
        }
    }
}

bool parse(int argc, char** argv, options& o) {
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const bool has_value = i + 1 < argc;
        if (a == "--seed" && has_value) {
            o.seed = std::strtoull(argv[++i], nullptr, 0);
        } else if (a == "--calls" && has_value) {
            o.calls = std::strtoll(argv[++i], nullptr, 0);
        } else if (a == "--only" && has_value) {
            o.only = argv[++i];
        } else if (a == "--hang-seconds" && has_value) {
            o.hang_seconds = std::strtod(argv[++i], nullptr);
        } else if (a == "--time-limit" && has_value) {
            o.time_limit = std::strtod(argv[++i], nullptr);
        } else if (a == "--verbose") {
            o.verbose = true;
        } else if (a == "--list") {
            o.list = true;
        } else if (a == "--replay" && i + 2 < argc) {
            o.replay_label = argv[++i];
            o.replay_index = std::strtoll(argv[++i], nullptr, 0);
        } else {
            std::fprintf(stderr,
                         "usage: %s [--seed N] [--calls N] [--only TEXT] [--hang-seconds S] "
                         "[--time-limit S] [--verbose] [--list] [--replay LABEL INDEX]\n",
                         argv[0]);
            return false;
        }
    }
    return true;
}

/// --replay: one call, in this process, its input printed and its outcome described.
int replay(const options& o, const std::vector<entry_point>& table) {
    for (const entry_point& e : table) {
        if (e.label != o.replay_label) continue;
        generator printing = make_generator(o, e, o.replay_index);
        std::printf("%s, call %lld (seed %llu):\n%s", e.label.c_str(),
                    static_cast<long long>(o.replay_index), static_cast<unsigned long long>(o.seed),
                    e.reproduce(printing).c_str());
        std::fflush(stdout);
        generator g = make_generator(o, e, o.replay_index);
        const call_outcome out = e.run(g);
        switch (out.what) {
            case call_outcome::kind::accepted:
                std::printf("accepted, %zu issue(s)\n", out.issues.size());
                for (const fuzz::issue& i : out.issues) {
                    std::printf("  %s: %s = %s\n", i.kind.c_str(), i.field.c_str(),
                                i.detail.c_str());
                }
                for (const std::string& f : g.hostile_enum_fields) {
                    std::printf("  out-of-range enum: %s\n", f.c_str());
                }
                break;
            case call_outcome::kind::rejected:
                std::printf("rejected: %s\n", out.message.c_str());
                break;
            case call_outcome::kind::other_exception:
                std::printf("other exception: %s\n", out.message.c_str());
                break;
            case call_outcome::kind::skipped:
                std::printf("skipped (its setup rejected the input)\n");
                break;
        }
        return 0;
    }
    std::fprintf(stderr, "no entry point labelled \"%s\" (see --list)\n", o.replay_label.c_str());
    return 2;
}

std::string percent(std::int64_t part, std::int64_t whole) {
    char text[32];
    std::snprintf(text, sizeof text, "%5.1f%%",
                  whole > 0 ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0);
    return text;
}

}  // namespace

int main(int argc, char** argv) {
    options o;
    if (!parse(argc, argv, o)) return 2;
    const std::vector<entry_point> table = fuzz::all_entry_points();
    if (static_cast<int>(table.size()) > max_entries) {
        std::fprintf(stderr, "more than %d entry points: raise max_entries\n", max_entries);
        return 2;
    }
    if (o.list) {
        for (const entry_point& e : table) std::printf("%s\n", e.label.c_str());
        return 0;
    }
    if (!o.replay_label.empty()) return replay(o, table);

    void* memory = mmap(nullptr, sizeof(shared_state), PROT_READ | PROT_WRITE,
                        MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (memory == MAP_FAILED) {
        std::perror("mmap");
        return 2;
    }
    shared = new (memory) shared_state{};

    std::vector<int> chosen;
    double weights = 0.0;
    for (std::size_t i = 0; i < table.size(); ++i) {
        if (o.only.empty() || table[i].label.find(o.only) != std::string::npos) {
            chosen.push_back(static_cast<int>(i));
            weights += table[i].weight;
        }
    }
    if (chosen.empty()) {
        std::fprintf(stderr, "no entry point matches --only \"%s\" (see --list)\n", o.only.c_str());
        return 2;
    }
    std::printf("gpucalc_fuzz: seed %llu, %lld calls over %zu entry points\n",
                static_cast<unsigned long long>(o.seed), static_cast<long long>(o.calls),
                chosen.size());
    std::printf("%-48s %9s %8s %8s %8s %9s %9s\n", "entry point", "calls", "accepted", "rejected",
                "skipped", "slowest", "seconds");
    const auto started = std::chrono::steady_clock::now();
    run_started = started;
    for (int entry : chosen) {
        if (out_of_time) break;
        if (o.time_limit > 0.0 && std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                                                 started)
                                          .count() > o.time_limit) {
            out_of_time = true;
            std::printf("time limit of %g s reached before %s; the run stops here\n",
                        o.time_limit, table[static_cast<std::size_t>(entry)].label.c_str());
            break;
        }
        const entry_point& e = table[static_cast<std::size_t>(entry)];
        const double share = e.weight / weights * static_cast<double>(o.calls);
        const std::int64_t count = std::max<std::int64_t>(
            std::max<std::int64_t>(1, e.pins), static_cast<std::int64_t>(share));
        const auto entry_started = std::chrono::steady_clock::now();
        run_entry(o, table, entry, count);
        const shared_stats& s = shared->stats[entry];
        std::printf("%-48s %9lld %8s %8s %8s %7.1fms %9.2f%s\n", e.label.c_str(),
                    static_cast<long long>(s.calls), percent(s.accepted, s.calls).c_str(),
                    percent(s.rejected, s.calls).c_str(), percent(s.skipped, s.calls).c_str(),
                    1e3 * s.slowest_seconds,
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - entry_started)
                        .count(),
                    s.accepted * 20 < s.calls ? "  (few accepted)" : "");
        std::fflush(stdout);
    }
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    std::int64_t calls = 0, accepted = 0;
    for (int entry : chosen) {
        calls += shared->stats[entry].calls;
        accepted += shared->stats[entry].accepted;
    }
    std::printf("total: %lld calls, %s accepted, in %.2f s (%.0f calls/s)\n",
                static_cast<long long>(calls), percent(accepted, calls).c_str(), elapsed,
                static_cast<double>(calls) / elapsed);

    const int findings = shared->findings.load();
    if (findings == 0) {
        std::printf(out_of_time ? "no findings in the calls made\n" : "no findings\n");
        return out_of_time ? 1 : 0;
    }
    std::printf("\n%d finding(s), by entry point; each with the first call that showed it:\n",
                findings);
    std::vector<int> order(static_cast<std::size_t>(findings));
    for (int i = 0; i < findings; ++i) order[static_cast<std::size_t>(i)] = i;
    std::stable_sort(order.begin(), order.end(), [](int a, int b) {
        return shared->finding[a].entry < shared->finding[b].entry;
    });
    for (int i : order) {
        const shared_finding& f = shared->finding[i];
        const entry_point& e = table[static_cast<std::size_t>(f.entry)];
        std::printf("\n[%s] %s%s%s (%lld call%s)\n  %s\n", e.label.c_str(), f.kind,
                    f.field[0] != '\0' ? ": " : "", f.field, static_cast<long long>(f.count),
                    f.count == 1 ? "" : "s", f.detail);
        generator g = make_generator(o, e, f.first_call);
        std::printf("  replay: gpucalc_fuzz --seed %llu --replay '%s' %lld\n%s",
                    static_cast<unsigned long long>(o.seed), e.label.c_str(),
                    static_cast<long long>(f.first_call), e.reproduce(g).c_str());
    }
    return 1;
}
