// model.hpp: what a transformer workload is: shape, the checked model, parameters, FLOPs,
// closed forms, LoRA
#pragma once

#include "model/checked.hpp"
#include "model/closed_forms.hpp"
#include "model/flops.hpp"
#include "model/lora.hpp"
#include "model/parameters.hpp"
#include "model/shape.hpp"
