// catalog/cpus.hpp: server and desktop CPUs, each figure with its source
#pragma once

#include "../hardware/cpu.hpp"
