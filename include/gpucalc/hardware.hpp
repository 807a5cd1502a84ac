// hardware.hpp: what a GPU, a link, a node and a cluster can do: capacity, bandwidth, dense
// peaks by precision, power, and the links between devices
#pragma once

#include "hardware/cluster.hpp"
#include "hardware/cpu.hpp"
#include "hardware/device.hpp"
#include "hardware/link.hpp"
