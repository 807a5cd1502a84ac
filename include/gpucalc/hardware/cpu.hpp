// hardware/cpu.hpp: what a CPU can do: cores, memory bandwidth, TDP, and FP32 and BF16 peaks
#pragma once
