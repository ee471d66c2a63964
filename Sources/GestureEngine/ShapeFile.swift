import GestureCore
import GestureSystem

/// A file of shape templates: one JSON object a line,
/// `{"name":"z","points":[[0,0],[30,0],[0,30],[30,30]],"anyDirection":false}`,
/// points in millimetres (any unit: templates are scale-invariant). Optional
/// `anyDirection` (may be drawn either way round; default false) and `loop`
/// (closes on itself, so may begin anywhere; default: when its ends meet).
/// Other keys are ignored. A bad line is reported with its line number and
/// skipped; the rest of the file still counts.
public struct ShapeFile: Sendable {
    public var path: String
    /// The file's templates, in order.
    public var templates: [ShapeTemplate] = []
    /// Each bad line, as `path:line: message`.
    public var problems: [String] = []

    public static let fileName = "shapes.jsonl"
    public static let maxPoints = 10_000
    public static let maxBytes = 16 << 20

    /// The shapes file that goes with a rules file: its own, `NAME.shapes.jsonl`
    /// for `NAME.lua`, when there is one, else `shapes.jsonl` beside it. The
    /// rules file's own lets several rules files in one folder (examples/)
    /// each teach a shape of their own.
    public static func besideRules(_ rulesPath: String?) -> String {
        guard let rulesPath else { return fileName }
        let folder = rulesPath.lastIndex(of: "/").map { String(rulesPath[...$0]) } ?? ""
        let base = rulesPath.lastIndex(of: "/").map { String(rulesPath[rulesPath.index(after: $0)...]) } ?? rulesPath
        if base.hasSuffix(".lua"), base.count > 4 {
            let own = folder + base.dropLast(4) + "." + fileName
            if FileSystem.kind(of: own) == .file { return own }
        }
        return folder + fileName
    }

    /// Reads and parses a file; the reason when it cannot be read at all.
    public static func read(_ path: String) -> Result<ShapeFile, FileError> {
        switch BoundedFile.read(path, limit: maxBytes) {
        case .failure(let error): return .failure(error)
        case .success(let bytes): return .success(parse(bytes, path: path))
        }
    }

    public static func parse(_ bytes: [UInt8], path: String) -> ShapeFile {
        var file = ShapeFile(path: path)
        guard bytes.count <= maxBytes else {
            file.problems.append("\(path): larger than \(maxBytes >> 20) MiB; a shapes file holds a few templates per shape")
            return file
        }
        var lineNumber = 0
        for line in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
            lineNumber += 1
            let text = String(decoding: line, as: UTF8.self)
            guard text.contains(where: { !$0.isWhitespace }) else { continue }
            switch template(from: text) {
            case .success(let t): file.templates.append(t)
            case .failure(let problem): file.problems.append("\(path):\(lineNumber): \(problem.message)")
            }
        }
        return file
    }

    struct Problem: Error {
        var message: String
    }

    static func template(from line: String) -> Result<ShapeTemplate, Problem> {
        let value: JSONValue
        switch Result(catching: { () throws(JSONParseError) in try JSONValue.parse(line) }) {
        case .success(let v): value = v
        case .failure(let error): return .failure(Problem(message: "not JSON: \(error.description)"))
        }
        guard let object = value.object else { return .failure(Problem(message: "a template is a JSON object with \"name\" and \"points\"")) }
        guard case .string(let rawName)? = object["name"] else {
            return .failure(Problem(message: "a template needs \"name\", a string such as \"circle\""))
        }
        let name = ShapeName.normalize(rawName)
        do {
            try ShapeName.validate(name)
        } catch {
            return .failure(Problem(message: error.description))
        }
        guard case .array(let list)? = object["points"] else {
            return .failure(Problem(message: "template \"\(name)\" needs \"points\", a list of [x, y] pairs"))
        }
        guard list.count <= maxPoints else {
            return .failure(Problem(message: "template \"\(name)\" has \(list.count) points; the most is \(maxPoints)"))
        }
        var points: [Vector] = []
        for (i, item) in list.enumerated() {
            guard case .array(let pair) = item, pair.count == 2, case .number(let x) = pair[0], case .number(let y) = pair[1],
                  x.isFinite, y.isFinite, abs(x) < 1e9, abs(y) < 1e9 else {
                return .failure(Problem(message: "template \"\(name)\": point \(i + 1) is not an [x, y] pair of numbers"))
            }
            points.append(Vector(x, y))
        }
        var anyDirection = false
        switch object["anyDirection"] {
        case nil: break
        case .bool(let b)?: anyDirection = b
        default: return .failure(Problem(message: "template \"\(name)\": \"anyDirection\" must be true or false"))
        }
        var loop: Bool?
        switch object["loop"] {
        case nil: break
        case .bool(let b)?: loop = b
        default: return .failure(Problem(message: "template \"\(name)\": \"loop\" must be true or false"))
        }
        guard let template = ShapeTemplate(name: name, path: points, anyDirection: anyDirection, loop: loop) else {
            return .failure(Problem(message: "template \"\(name)\": its points do not go anywhere (fewer than two, or all in one place)"))
        }
        return .success(template)
    }

    /// One template as a line of the file, its points with a hundredth of a millimetre.
    public static func line(name: String, points: [Vector], anyDirection: Bool? = nil) -> String {
        var json = JSONWriter()
        json.raw("{\"name\":")
        json.string(name)
        json.raw(",\"points\":[")
        for (i, p) in points.enumerated() {
            if i > 0 { json.byte(0x2C) }
            json.byte(0x5B)
            json.number((p.x * 100).rounded() / 100)
            json.byte(0x2C)
            json.number((p.y * 100).rounded() / 100)
            json.byte(0x5D)
        }
        json.byte(0x5D)
        if anyDirection == true { json.raw(",\"anyDirection\":true") }
        if anyDirection == false { json.raw(",\"anyDirection\":false") }
        json.byte(0x7D)
        return json.text
    }

    /// The built-in shapes, with a file's templates added: a name the file
    /// uses replaces every built-in template of that name.
    public static func library(adding file: [ShapeTemplate]) -> [ShapeTemplate] {
        let taught = Set(file.map(\.name))
        return BuiltinShapes.templates.filter { !taught.contains($0.name) } + file
    }

    /// Names, each once, in the order first seen.
    public static func names(_ templates: [ShapeTemplate]) -> [String] {
        var seen: Set<String> = []
        return templates.map(\.name).filter { seen.insert($0).inserted }
    }
}
