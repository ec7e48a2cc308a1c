#include "run/environment.hpp"

#include <algorithm>
#include <cstdlib>
#include <thread>

namespace rushhour::run {

bool mpi_built_in() {
#ifdef RUSHHOUR_WITH_MPI
  return true;
#else
  return false;
#endif
}

Environment Environment::of_this_process() {
  Environment environment;
  environment.cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "MPI_LOCALNRANKS"})
    if (std::getenv(name) != nullptr) environment.mpi_launcher = true;
  for (const char* name : {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK"})
    if (const char* value = std::getenv(name); value != nullptr && environment.mpi_launcher) {
      environment.rank = std::atoi(value);
      break;
    }
  return environment;
}

}  // namespace rushhour::run
