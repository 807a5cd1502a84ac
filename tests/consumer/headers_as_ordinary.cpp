// gpucalc's public headers seen as ordinary headers (-I, not -isystem), so a strict consumer's
// warnings (-Wfloat-equal; Clang's -Wweak-vtables) apply to them. format.hpp, and the umbrella
// that includes it, are left out until format.hpp's own floating-point == are gone.
#include <gpucalc/catalog/gpus.hpp>
#include <gpucalc/catalog/instances.hpp>
#include <gpucalc/catalog/links.hpp>
#include <gpucalc/catalog/models.hpp>
#include <gpucalc/catalog/prices.hpp>
#include <gpucalc/cost.hpp>
#include <gpucalc/error.hpp>
#include <gpucalc/hardware.hpp>
#include <gpucalc/literals.hpp>
#include <gpucalc/memory.hpp>
#include <gpucalc/model.hpp>
#include <gpucalc/parallelism.hpp>
#include <gpucalc/parallelism/costs.hpp>
#include <gpucalc/precision.hpp>
#include <gpucalc/roofline.hpp>
#include <gpucalc/units.hpp>
#include <gpucalc/version.hpp>
#include <gpucalc/workload.hpp>
