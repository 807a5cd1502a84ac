// units.hpp: the quantity types gpucalc computes with (units/quantities.hpp) and how they print
// (units/print.hpp). Every module header includes this, so a quantity's operator<< is visible
// wherever its type is.
#pragma once

#include "units/print.hpp"
#include "units/quantities.hpp"
