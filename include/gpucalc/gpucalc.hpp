// gpucalc.hpp: everything at once, for convenience; each header can also be included alone
#pragma once

#include "catalog/gpus.hpp"
#include "catalog/instances.hpp"
#include "catalog/links.hpp"
#include "catalog/models.hpp"
#include "catalog/prices.hpp"
#include "cost.hpp"
#include "error.hpp"
#include "format.hpp"
#include "hardware.hpp"
#include "literals.hpp"
#include "memory.hpp"
#include "model.hpp"
#include "precision.hpp"
#include "roofline.hpp"
#include "units.hpp"
#include "version.hpp"
