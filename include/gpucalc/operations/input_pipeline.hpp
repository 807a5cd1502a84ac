// operations/input_pipeline.hpp: keeping the GPUs fed: the input rate training consumes against what storage, network and data-loader workers supply
#pragma once
