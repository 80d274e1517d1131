#include "run/interrupt.h"

#include <csignal>

namespace plume {

namespace {
volatile std::sig_atomic_t gSignal = 0;

extern "C" void onSignal(int sig) {
    // A second Ctrl-C means "now": restore the default action for it.
    if (gSignal != 0) {
        std::signal(sig, SIG_DFL);
        std::raise(sig);
    }
    gSignal = sig;
}
}  // namespace

void installInterruptHandlers() {
    std::signal(SIGINT, onSignal);
    std::signal(SIGTERM, onSignal);
}

int interruptSignal() { return gSignal; }

}  // namespace plume
