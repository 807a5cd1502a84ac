// entry_points.hpp: the table of every public entry point of gpucalc, module by module, that the
// fuzz run (contract.cpp) and the threaded sweep (threads.cpp) both drive.
//
// Adding a module: write entries_<module>.cpp holding one register_<module>(registry&) that
// add()s each of the module's public functions (one add() per overload), declare it below, and
// call it from all_entry_points(). Both runs then cover the module; docs/testing.md says more.
#pragma once

#include "fuzz.hpp"

namespace fuzz {

void register_units(registry& r);     // precision.hpp, units, format.hpp, testing.hpp
void register_hardware(registry& r);  // hardware: devices, links, clusters
void register_model(registry& r);     // model, parallelism
void register_memory(registry& r);    // memory
void register_roofline(registry& r);  // roofline
void register_cost(registry& r);      // cost
void register_prices(registry& r);    // catalog: dated prices and their lookups
void register_collectives(registry& r);  // scaling: collectives, placement
void register_scaling_laws(registry& r);  // scaling: Amdahl, Gustafson, USL and their fits
void register_scaling_inference(registry& r);  // scaling: decode and prefill across GPUs
void register_scaling_step(registry& r);  // scaling: the training step time across GPUs
void register_scaling_search(registry& r);  // scaling: the smallest GPU count a job fits on
void register_serving_queueing(registry& r);  // serving: Erlang B and C, waits, servers for a wait
void register_serving_capacity(registry& r);  // serving: one replica's capacity, the load model
void register_serving_replicas(registry& r);  // serving: replicas for a rate, their cost per token
void register_serving_demand(registry& r);  // serving: cold starts, ramps, a day's demand, batch
void register_serving_right_size(registry& r);  // serving: right-sizing from measurements
void register_serving_fleet(registry& r);  // serving: the cheapest mix of GPU types
void register_items(registry& r);  // workloads that are not transformers: roofline, memory, serving
void register_operations_checkpoint(registry& r);  // operations: checkpoints, interruptions
void register_operations_feed(registry& r);  // operations: the input pipeline
void register_operations_cpu(registry& r);  // operations: CPUs, CPU against GPU

/// Adds `to_string` of enum E, drawn from its `count` enumerators or a hostile value, at a
/// small share of the calls: every module's enums join the table this way.
template <class E>
void add_enum_to_string(registry& r, const char* label, int count) {
    add(r, label, "to_string", "gpucalc::to_string({0})",
        [count](generator& g) { return std::tuple{g.any_enum<E>(count, "value")}; },
        [](E e) { return gpucalc::to_string(e); })
        .weight = 0.3;
}

inline registry all_entry_points() {
    registry r;
    register_units(r);
    register_hardware(r);
    register_model(r);
    register_memory(r);
    register_roofline(r);
    register_cost(r);
    register_prices(r);
    register_collectives(r);
    register_scaling_laws(r);
    register_scaling_inference(r);
    register_scaling_step(r);
    register_scaling_search(r);
    register_serving_queueing(r);
    register_serving_capacity(r);
    register_serving_replicas(r);
    register_serving_demand(r);
    register_serving_right_size(r);
    register_serving_fleet(r);
    register_items(r);
    register_operations_checkpoint(r);
    register_operations_feed(r);
    register_operations_cpu(r);
    return r;
}

}  // namespace fuzz
