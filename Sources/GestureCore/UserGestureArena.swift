/// The arena's side of the kinds users make: drawn shapes, and recognizers
/// written in Lua, whose decisions come from an `ExternalRecognizerDriver`
/// asked by whoever answers the arena's questions.
extension GestureArena {
    /// The recognizers the rules define in Lua, by name in the order the driver
    /// numbers them, and the shape templates. Recognizers follow when no
    /// gesture is under way, as after a rule change.
    public mutating func setUserGestures(recognizers names: [String], templates: [ShapeTemplate]) {
        scriptedRecognizers = names
        shapeTemplates = templates
        scheduleRebuild()
        nextDeadline = earliestDue
    }

    /// The recognizers of `shape` and of each Lua kind that an active rule binds,
    /// after the built-in ones: a swipe recognized in the same frame wins.
    mutating func addUserGestures(_ active: [GestureSpec]) {
        if active.contains(where: { $0.kind == .shape }) {
            stage.recognizers.add(shape: ShapeRecognizer(config: .init(rules: active, thresholds: thresholds, templates: shapeTemplates)))
        }
        var names: [String] = []
        for spec in active where spec.kind == .custom {
            if let name = spec.name, !names.contains(name) { names.append(name) }
        }
        for name in names {
            stage.recognizers.add(custom: ScriptedRecognizer(name: name, index: scriptedRecognizers.firstIndex(of: name)))
        }
    }
}

