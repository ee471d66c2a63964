import GestureActions
import GestureCore
import GestureScript

/// The rules' side effects: programs and keys. `--dry-run` turns both into
/// JSON lines on stdout instead.
extension Engine {
    public func exec(_ request: ExecRequest) -> String? {
        if options.dryRun {
            var json = JSONWriter()
            json.raw("{\"action\":\"exec\",\"t\":")
            json.time(request.gesture?.time ?? runtime?.clock ?? 0)
            json.raw(",\"argv\":[")
            for (i, arg) in request.argv.enumerated() {
                if i > 0 { json.byte(0x2C) }
                json.string(arg)
            }
            json.raw("]}")
            write(line: json.text)
            return nil
        }
        var env = request.environment
        if let gesture = request.gesture {
            for (k, v) in gestureEnvironment(gesture, device: request.deviceName) where env[k] == nil { env[k] = v }
        }
        return launcher.launch(ProcessLauncher.Request(
            argv: request.argv, environment: env, directory: request.directory,
            timeout: request.timeout, origin: request.origin))
    }

    public func key(_ combo: String, origin: String) -> String? {
        let keys: KeyCombo
        switch KeyCombo.parse(combo) {
        case .success(let k): keys = k
        case .failure(let error): return error.message
        }
        let t = runtime?.clock ?? 0
        if options.dryRun {
            for e in keys.events where e.type == 1 {
                var json = JSONWriter()
                json.raw("{\"action\":\"key\",\"t\":")
                json.time(t)
                json.raw(",\"key\":")
                json.string(KeyCombo.name(of: e.code) ?? String(e.code))
                json.raw(",\"value\":")
                json.integer(Int64(e.value))
                json.byte(0x7D)
                write(line: json.text)
            }
            return nil
        }
        if keyboard == nil {
            do {
                keyboard = try VirtualKeyboard()
            } catch {
                console.say("gesturemap: \(origin): " + error.message)
                fatal = .unavailable
                return nil
            }
        }
        guard let keyboard else { return nil }
        for e in keys.events where !keyboard.write(type: e.type, code: e.code, value: e.value) {
            return "key(\"\(combo)\"): the virtual keyboard stopped accepting events"
        }
        return nil
    }
}
