#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import GestureEngine

signal(SIGPIPE, SIG_IGN)
let status = CommandLine.dispatch(Array(CommandLine.arguments.dropFirst()))
exit(status.rawValue)
