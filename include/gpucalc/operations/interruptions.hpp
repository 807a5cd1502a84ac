// operations/interruptions.hpp: interruptions from spot reclaims and hardware failures, chained to the checkpoint interval and the bill
#pragma once
