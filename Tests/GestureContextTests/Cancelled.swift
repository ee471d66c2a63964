import Testing

/// `Test.cancel` for initializers, as `throw try cancelled("why")`: an
/// initializer that calls a function that never returns is left with the
/// compiler's own clean-up code after the call, which it then warns will
/// never be executed.
func cancelled(_ reason: Comment, sourceLocation: SourceLocation = #_sourceLocation) throws -> any Error {
    try Test.cancel(reason, sourceLocation: sourceLocation)
}
