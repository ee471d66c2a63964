import GestureActions

/// What a run was given and answers to, fixed for its whole length: its
/// options, the console for people, and stdout's lines for programs.
struct RunSetup {
    let options: RunOptions
    let console: Console
    let output: LineSink
}
