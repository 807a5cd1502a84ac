// checked_cluster_without_check.cpp: a checked cluster comes only from check(cluster), so a
// function taking one can trust it; wrapping a cluster directly must not compile.
// Must not compile; under GPUCALC_TWIN the corrected line must (see tests/CMakeLists.txt).
// expect-gcc: checked_cluster_without_check\.cpp:@MISUSE_LINE@:[0-9]+: error: no matching function for call to 'gpucalc::checked_cluster::checked_cluster\(<brace-enclosed initializer list>\)'
// expect-clang: no matching constructor for initialization of 'const gpucalc::checked_cluster'
#include <gpucalc/catalog/gpus.hpp>
#include <gpucalc/catalog/links.hpp>

namespace cat = gpucalc::catalog;

void misuse() {
    gpucalc::cluster pod{};
    pod.node.gpu = cat::h100_sxm;
    pod.nodes = 2;
    pod.inter_node = cat::infiniband_ndr;
#ifndef GPUCALC_TWIN
    const gpucalc::checked_cluster handle{pod};
#else
    const gpucalc::checked_cluster handle = gpucalc::check(pod);
#endif
    (void)handle;
}
