// entries_prices.cpp: the fuzz table's entries for catalog/price_record.hpp and the catalog's
// dated prices (catalog/prices.hpp): a record's check and its price per GPU-hour, the records a
// table (the caller's, or the catalog's) holds for a GPU and the newest of them, the dates'
// comparisons and the enums' names.
#include <gpucalc/catalog/gpus.hpp>
#include <gpucalc/catalog/price_record.hpp>
#include <gpucalc/catalog/prices.hpp>

#include <cstddef>
#include <cstdint>
#include <string>

#include "entry_points.hpp"
#include "inputs.hpp"
#include "inspect.hpp"

namespace fuzz {

template <>
struct enum_traits<gpucalc::cloud_provider> {
    static constexpr const char* name = "gpucalc::cloud_provider";
    static constexpr int count = 7;
};
template <>
struct enum_traits<gpucalc::price_kind> {
    static constexpr const char* name = "gpucalc::price_kind";
    static constexpr int count = 2;
};
template <>
struct enum_traits<gpucalc::price_basis> {
    static constexpr const char* name = "gpucalc::price_basis";
    static constexpr int count = 2;
};

#define FUZZ_FIELD(m) f(#m, a.m, b.m)
template <class F>
void fields(const gpucalc::calendar_date& a, const gpucalc::calendar_date& b, F&& f) {
    FUZZ_FIELD(year); FUZZ_FIELD(month); FUZZ_FIELD(day);
}
template <class F>
void fields(const gpucalc::price_record& a, const gpucalc::price_record& b, F&& f) {
    FUZZ_FIELD(gpu); FUZZ_FIELD(provider); FUZZ_FIELD(region); FUZZ_FIELD(kind); FUZZ_FIELD(offer);
    FUZZ_FIELD(gpus); FUZZ_FIELD(basis); FUZZ_FIELD(per_gpu); FUZZ_FIELD(per_instance);
    FUZZ_FIELD(read); FUZZ_FIELD(source); FUZZ_FIELD(uncertain);
}
#undef FUZZ_FIELD
template <>
inline const char* type_name<gpucalc::calendar_date>() { return "gpucalc::calendar_date"; }
template <>
inline const char* type_name<gpucalc::price_record>() { return "gpucalc::price_record"; }

/// A GPU with no name, which no price matches: a lookup given it, or a record pointing to it,
/// is invalid_input.
inline const gpucalc::gpu_spec* unnamed_gpu() {
    static const gpucalc::gpu_spec unnamed{};
    return &unnamed;
}

/// The catalog's GPUs by the names their variables have, for printing a pointer to one.
struct named_gpu {
    const gpucalc::gpu_spec* gpu;
    const char* name;
};
inline const named_gpu* catalog_gpu_names(std::size_t& count) {
    namespace cat = gpucalc::catalog;
    static const named_gpu names[] = {
        {&cat::t4, "t4"}, {&cat::l4, "l4"}, {&cat::a10, "a10"}, {&cat::a10g, "a10g"},
        {&cat::a100_40gb_sxm, "a100_40gb_sxm"}, {&cat::a100_80gb_sxm, "a100_80gb_sxm"},
        {&cat::a100_80gb_pcie, "a100_80gb_pcie"}, {&cat::h100_sxm, "h100_sxm"},
        {&cat::h100_pcie, "h100_pcie"}, {&cat::h100_nvl, "h100_nvl"}, {&cat::h200, "h200"},
        {&cat::b200, "b200"}, {&cat::gb200, "gb200"}, {&cat::mi300x, "mi300x"},
        {&cat::mi325x, "mi325x"}, {&cat::tpu_v5e, "tpu_v5e"}, {&cat::tpu_v5p, "tpu_v5p"}};
    count = sizeof(names) / sizeof(names[0]);
    return names;
}

/// A record's GPU, or a lookup's: a catalog entry by name, null, or the harness's unnamed GPU
/// (declared before the call).
inline std::string leaf(printer& p, const gpucalc::gpu_spec* gpu) {
    if (gpu == nullptr) return "nullptr";
    std::size_t count = 0;
    const named_gpu* names = catalog_gpu_names(count);
    for (std::size_t k = 0; k < count; ++k) {
        if (names[k].gpu == gpu) return std::string("&gpucalc::catalog::") + names[k].name;
    }
    if (p.declarations.find("unnamed_gpu{}") == std::string::npos) {
        p.line("static const gpucalc::gpu_spec unnamed_gpu{};  // no name");
    }
    return "&unnamed_gpu";
}

namespace draw {

/// The GPU a lookup is given: a catalog entry, or (hostile) null or a GPU with no name.
inline const gpucalc::gpu_spec* priced_gpu(generator& g) {
    const gpucalc::gpu_spec* gpu =
        gpucalc::catalog::all_gpus[g.r.below(gpucalc::catalog::all_gpus.size())];
    if (g.hostile()) return g.coin() ? nullptr : unnamed_gpu();
    return gpu;
}

/// A date: usually a catalog record's, sometimes any day of the valid range, or (hostile) one
/// that is not a day of the calendar or lies outside it.
inline gpucalc::calendar_date date(generator& g, gpucalc::calendar_date d) {
    if (g.coin(0.3)) {
        d = {2000 + static_cast<int>(g.r.below(101)), 1 + static_cast<int>(g.r.below(12)),
             1 + static_cast<int>(g.r.below(28))};
    }
    if (g.hostile()) {
        static constexpr gpucalc::calendar_date bad[] = {
            {2026, 2, 29}, {2100, 2, 29}, {1999, 12, 31}, {2101, 1, 1}, {2026, 0, 1},
            {2026, 13, 1}, {2026, 4, 31}, {2026, 1, 0},   {0, 0, 0},    {-2026, -1, -1}};
        d = g.one_of(bad);
    }
    return d;
}

/// A record: one of the catalog's, perturbed; its fields hostile as the call's hostility says.
inline gpucalc::price_record price_record(generator& g) {
    namespace cat = gpucalc::catalog;
    gpucalc::price_record r = cat::all_prices[g.r.below(cat::price_count)];
    if (g.coin(0.2)) r.gpu = cat::all_gpus[g.r.below(cat::all_gpus.size())];
    if (g.hostile()) r.gpu = g.coin() ? nullptr : unnamed_gpu();
    // The prices first, from the catalog record's basis (never from a drawn enum): sometimes
    // the same price the other way (an instance's $/h as its $/GPU·h, or back), sometimes
    // another price of the same basis.
    const bool flip = g.coin(0.1);
    const bool other_price = g.coin(0.2);
    if (r.basis == gpucalc::price_basis::per_instance_hour) {
        if (other_price) {
            r.per_instance = gpucalc::cost_rate::from_value(g.real(typical::instance_price));
        }
        if (flip) {
            r.per_gpu = r.per_instance / gpucalc::as_gpus(r.gpus);
            r.per_instance = gpucalc::cost_rate{};
            r.basis = gpucalc::price_basis::per_gpu_hour;
        }
    } else {
        if (other_price) r.per_gpu = gpucalc::gpu_price::from_value(g.real(typical::gpu_price));
        if (flip) {
            r.per_instance = r.per_gpu * gpucalc::as_gpus(r.gpus);
            r.per_gpu = gpucalc::gpu_price{};
            r.basis = gpucalc::price_basis::per_instance_hour;
        }
    }
    r.per_gpu = g.keep_q(r.per_gpu);
    r.per_instance = g.keep_q(r.per_instance);
    r.provider = g.keep_enum(r.provider, "record", "provider");
    r.kind = g.keep_enum(r.kind, "record", "kind");
    r.basis = g.keep_enum(r.basis, "record", "basis");
    if (g.hostile()) r.region = "";
    if (g.hostile()) r.offer = "";
    if (g.hostile()) r.source = g.coin() ? "" : "http://example.com/prices";
    r.gpus = g.keep(r.gpus);
    r.read = date(g, r.read);
    if (g.coin(0.1)) r.uncertain = !r.uncertain;
    return r;
}

/// A caller's table of three records, usually for one GPU so that lookups find several.
inline carray<gpucalc::price_record, 3> price_table(generator& g) {
    carray<gpucalc::price_record, 3> t{};
    for (gpucalc::price_record& r : t.v) r = price_record(g);
    if (g.coin(0.6)) {
        const gpucalc::gpu_spec* gpu = t.v[0].gpu;
        for (gpucalc::price_record& r : t.v) r.gpu = gpu;
    }
    return t;
}

/// Any date, valid or not (the comparisons take any values).
inline gpucalc::calendar_date any_date(generator& g) {
    gpucalc::calendar_date d = date(g, {2026, 9, 25});
    if (g.hostile()) {
        d.year = static_cast<int>(static_cast<std::int32_t>(g.hostile_count() & 0x7fffffff));
    }
    return d;
}

}  // namespace draw

/// prices_for's answer, with what it was asked: every record of the table that prices the GPU,
/// in table order, and no other.
template <std::size_t N>
struct price_list_answer {
    gpucalc::price_list<N> list;
    const gpucalc::gpu_spec* gpu;
    const gpucalc::price_record* table;
};
template <std::size_t N>
void inspect(inspector& i, const price_list_answer<N>& a) {
    i.count("size()", static_cast<std::int64_t>(a.list.size()));
    i.invariant("size() <= the table's size", a.list.size() <= N);
    const gpucalc::price_record* previous = nullptr;
    for (const gpucalc::price_record* r : a.list) {
        const std::ptrdiff_t index = r - a.table;
        i.count("records[k] - table", index);
        i.invariant("each record points into the table",
                    index >= 0 && index < static_cast<std::ptrdiff_t>(N), std::to_string(index));
        i.invariant("each record prices the GPU asked for", r->gpu->name == a.gpu->name);
        i.invariant("records in table order", previous == nullptr || previous < r);
        previous = r;
    }
    std::size_t expected = 0;
    for (std::size_t k = 0; k < N; ++k) expected += a.table[k].gpu->name == a.gpu->name ? 1 : 0;
    i.invariant("every record for the GPU is listed", expected == a.list.size(),
                std::to_string(expected) + " != " + std::to_string(a.list.size()));
}

/// newest_price's answer, with what it was asked: null when no record matches, else a matching
/// record no other matching record is newer than.
struct newest_answer {
    const gpucalc::price_record* chosen;
    const gpucalc::gpu_spec* gpu;
    gpucalc::cloud_provider provider;
    gpucalc::price_kind kind;
    const gpucalc::price_record* table;
    std::size_t size;
};
inline void inspect(inspector& i, const newest_answer& a) {
    const auto matches = [&](const gpucalc::price_record& r) {
        return r.provider == a.provider && r.kind == a.kind && r.gpu->name == a.gpu->name;
    };
    std::size_t matching = 0;
    for (std::size_t k = 0; k < a.size; ++k) matching += matches(a.table[k]) ? 1 : 0;
    if (a.chosen == nullptr) {
        i.no_answer("result");
        i.invariant("null only when no record matches", matching == 0, std::to_string(matching));
        return;
    }
    const std::ptrdiff_t index = a.chosen - a.table;
    i.count("result - table", index);
    i.invariant("result points into the table",
                index >= 0 && index < static_cast<std::ptrdiff_t>(a.size), std::to_string(index));
    i.invariant("result matches the GPU, provider and kind", matches(*a.chosen));
    for (std::size_t k = 0; k < a.size; ++k) {
        if (matches(a.table[k])) {
            i.invariant("no matching record is newer", !(a.chosen->read < a.table[k].read),
                        std::to_string(k));
        }
    }
    i.amount("gpu_hour_price(*result)", gpucalc::gpu_hour_price(*a.chosen));
}

void register_prices(registry& r) {
    using namespace gpucalc;
    namespace cat = gpucalc::catalog;

    // catalog/price_record.hpp
    add(r, "check(price_record)", "check(price_record)", "gpucalc::check({0})",
        [](generator& g) { return std::tuple{draw::price_record(g)}; },
        [](const price_record& rec) {
            check(rec);
            return true;
        });
    add(r, "gpu_hour_price", "gpu_hour_price", "gpucalc::gpu_hour_price({0})",
        [](generator& g) { return std::tuple{draw::price_record(g)}; },
        [](const price_record& rec) { return gpu_hour_price(rec); });
    add(r, "prices_for [table]", "prices_for", "gpucalc::prices_for({0}, {1})",
        [](generator& g) { return std::tuple{draw::price_table(g), draw::priced_gpu(g)}; },
        [](const carray<price_record, 3>& table, const gpu_spec* gpu) {
            return price_list_answer<3>{prices_for(table.v, gpu), gpu, table.v};
        });
    add(r, "newest_price [table]", "newest_price", "gpucalc::newest_price({0}, {1}, {2}, {3})",
        [](generator& g) {
            return std::tuple{draw::price_table(g), draw::priced_gpu(g),
                              g.any_enum<cloud_provider>(cloud_provider_count, "provider"),
                              g.any_enum<price_kind>(price_kind_count, "kind")};
        },
        [](const carray<price_record, 3>& table, const gpu_spec* gpu, cloud_provider provider,
           price_kind kind) {
            return newest_answer{newest_price(table.v, gpu, provider, kind), gpu, provider, kind,
                                 table.v, 3};
        });
    add(r, "operator==(calendar_date)", "operator==", "{0} == {1}",
        [](generator& g) {
            const calendar_date a = draw::any_date(g);
            return std::tuple{a, g.coin() ? a : draw::any_date(g)};
        },
        [](const calendar_date& a, const calendar_date& b) { return a == b; })
        .weight = 0.2;
    add(r, "operator!=(calendar_date)", "operator!=", "{0} != {1}",
        [](generator& g) {
            const calendar_date a = draw::any_date(g);
            return std::tuple{a, g.coin() ? a : draw::any_date(g)};
        },
        [](const calendar_date& a, const calendar_date& b) { return a != b; })
        .weight = 0.2;
    add(r, "operator<(calendar_date)", "operator<", "{0} < {1}",
        [](generator& g) { return std::tuple{draw::any_date(g), draw::any_date(g)}; },
        [](const calendar_date& a, const calendar_date& b) { return a < b; })
        .weight = 0.2;
    add_enum_to_string<cloud_provider>(r, "to_string(cloud_provider)", cloud_provider_count);
    add_enum_to_string<price_kind>(r, "to_string(price_kind)", price_kind_count);
    add_enum_to_string<price_basis>(r, "to_string(price_basis)", price_basis_count);

    // catalog/prices.hpp: the lookups over the catalog's table.
    add(r, "prices_for [catalog]", "prices_for", "gpucalc::catalog::prices_for({0})",
        [](generator& g) { return std::tuple{draw::priced_gpu(g)}; },
        [](const gpu_spec* gpu) {
            return price_list_answer<cat::price_count>{cat::prices_for(gpu), gpu,
                                                       cat::all_prices};
        });
    add(r, "newest_price [catalog]", "newest_price",
        "gpucalc::catalog::newest_price({0}, {1}, {2})",
        [](generator& g) {
            return std::tuple{draw::priced_gpu(g),
                              g.any_enum<cloud_provider>(cloud_provider_count, "provider"),
                              g.any_enum<price_kind>(price_kind_count, "kind")};
        },
        [](const gpu_spec* gpu, cloud_provider provider, price_kind kind) {
            return newest_answer{cat::newest_price(gpu, provider, kind), gpu, provider, kind,
                                 cat::all_prices, cat::price_count};
        });
}

}  // namespace fuzz
