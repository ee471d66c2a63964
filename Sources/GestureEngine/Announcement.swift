import GestureInput

/// How each input is read (its format, its units and where they came from),
/// said once per input.
extension Engine {
    /// Says once how an input is read: under `-v` always; without it only when
    /// its size was guessed (a typical size, udev's hint, the display), so that
    /// whoever sees odd distances knows why and that `--size` sets it.
    func announce(_ source: Source, atEnd: Bool = false) {
        for line in Engine.announcement(of: source, verbose: options.verbose, atEnd: atEnd) { console.say(line) }
    }

    /// What `announce` says, once; from whichever thread has the decoder.
    static func announcement(of source: Source, verbose: Bool, atEnd: Bool) -> [String] {
        guard !source.announced, atEnd || source.decoder.eventCount > 0 else { return [] }
        // A mouse's counts need no unit of a surface: the engine says its dpi under -v.
        let mouse = source.decoder.readsMouse
        let guessed = source.decoder.converter.origin.isGuess && !mouse
        guard verbose || guessed else { return [] }
        source.announced = true
        var lines: [String] = []
        if verbose, let auto = source.decoder as? AutoDecoder, let how = auto.formatExplanation { lines.append(how) }
        if !mouse { lines.append(source.decoder.unitsExplanation) }
        return lines
    }
}
