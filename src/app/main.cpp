#include "app/commands.hpp"

int main(int argc, char** argv) { return rushhour::app::run(argc, argv); }
