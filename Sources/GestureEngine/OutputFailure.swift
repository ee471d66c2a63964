import GestureActions

extension ExitCode {
    /// How a command ends when its output stops taking lines: quietly when the
    /// reader went away (`| head`), with a message naming the output otherwise.
    public static func forOutput(_ failure: OutputFailure, command: String, console: Console) -> ExitCode {
        guard let message = failure.message else { return .outputClosed }
        console.say("\(command): \(message); stopping")
        return .cannotWrite
    }
}
