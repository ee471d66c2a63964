import Glibc
import GestureEngine

// Writes see EPIPE instead of killing the process mid-line, so each command
// decides how to stop (and `run` lets the programs it started finish).
signal(SIGPIPE, SIG_IGN)
let status = CommandLine.dispatch(Array(CommandLine.arguments.dropFirst()))
if status == .outputClosed {
    // Then end as `cat` or `seq` do when `head` has read enough: by SIGPIPE,
    // which shells report as 141 and systemd counts as a clean stop.
    signal(SIGPIPE, SIG_DFL)
    var set = sigset_t()
    sigemptyset(&set)
    sigaddset(&set, SIGPIPE)
    pthread_sigmask(SIG_UNBLOCK, &set, nil)
    raise(SIGPIPE)
}
exit(status.rawValue)
