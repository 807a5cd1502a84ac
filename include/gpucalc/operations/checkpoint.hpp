// operations/checkpoint.hpp: checkpoint size for a training setup and layout, and its write and restore time
#pragma once
