extension Engine {
    /// One trace line on stderr, in the form `--trace` asked for.
    func sayTrace(text: @autoclosure () -> String, json: @autoclosure () -> String) {
        switch options.trace {
        case .text: console.say("trace: " + text())
        case .json: console.say(json())
        case nil: return
        }
    }
}
