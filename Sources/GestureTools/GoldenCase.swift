import GestureEngine
import GestureSystem
/// One golden test of a rules file: a recording, and beside it the lines that
/// `run` should print for it (`NAME.jsonl` with `NAME.expected`).
public struct GoldenCase: Equatable, Sendable {
    /// The recording, as its path was found.
    public var input: String
    /// Where its expectations are, whether or not that file exists yet.
    public var expected: String

    public static let expectedExtension = ".expected"

    /// Files in a cases folder that are not recordings: rules, notes, editors' backups.
    static func isRecording(name: String) -> Bool {
        !name.hasPrefix(".") && !name.hasSuffix("~") && !["expected", "lua", "md", "swp"].contains(fileExtension(of: name))
    }

    public init(input: String) {
        self.input = input
        self.expected = GoldenCase.stem(of: input) + GoldenCase.expectedExtension
    }

    /// The path without its last extension: `cases/left.jsonl` → `cases/left`.
    static func stem(of path: String) -> String {
        let nameStart = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
        guard let dot = path[nameStart...].lastIndex(of: "."), dot > nameStart else { return path }
        return String(path[..<dot])
    }

    static func fileExtension(of path: String) -> String {
        let stem = stem(of: path)
        return stem.count < path.count ? String(path.dropFirst(stem.count + 1)) : ""
    }
}

/// The cases that files and folders on the command line name, in a stable order.
public struct GoldenCaseList: Sendable {
    public var cases: [GoldenCase] = []
    /// Paths that hold no case, for people: each stops the run as a failure.
    public var problems: [String] = []

    public init(paths: [String]) {
        for path in paths { add(path, named: true) }
        if cases.isEmpty && problems.isEmpty {
            problems.append("no cases in \(paths.joined(separator: ", ")): a case is a recording such as NAME.jsonl, NAME.evemu or NAME.txt, with NAME.expected beside it (create them with --update)")
        }
    }

    /// Folders already walked, by device and inode: a link back up is walked once.
    private var walked = Set<FileSystem.Identity>()
    /// Deeper than this is a loop of names, not a tree of cases.
    static let deepestFolder = 32

    private mutating func add(_ path: String, named: Bool, depth: Int = 0) {
        switch FileSystem.kind(of: path) {
        case .missing:
            problems.append("\(path): no such file or folder")
        case .directory:
            guard let identity = FileSystem.identity(of: path), walked.insert(identity).inserted else { return }
            guard depth < GoldenCaseList.deepestFolder else {
                problems.append("\(path): folders nested more than \(GoldenCaseList.deepestFolder) deep")
                return
            }
            addFolder(path, depth: depth)
        case .other where !named:
            // A FIFO or device in a folder of cases would hold the run waiting on it.
            if GoldenCase.isRecording(name: path.split(separator: "/").last.map(String.init) ?? path) {
                problems.append("\(path): not a regular file; a case is a file")
            }
        case .file, .other:
            if path.hasSuffix(GoldenCase.expectedExtension) {
                if named { addRecording(for: path) }
                return
            }
            let name = path.split(separator: "/").last.map(String.init) ?? path
            if named || GoldenCase.isRecording(name: name) { cases.append(GoldenCase(input: path)) }
        }
    }

    private mutating func addFolder(_ folder: String, depth: Int) {
        guard let names = Directory.names(in: folder) else {
            problems.append("\(folder): cannot read the folder")
            return
        }
        let base = folder.hasSuffix("/") ? folder : folder + "/"
        var stems = Set<String>()
        for name in names where !name.hasPrefix(".") {
            let path = base + name
            let before = cases.count
            add(path, named: false, depth: depth + 1)
            if cases.count > before { stems.insert(GoldenCase.stem(of: path)) }
        }
        // An expectation with no recording would never be checked: say so.
        for name in names where name.hasSuffix(GoldenCase.expectedExtension) {
            let stem = GoldenCase.stem(of: base + name)
            if !stems.contains(stem) {
                problems.append("\(base + name): no recording beside it named \(stem.split(separator: "/").last.map(String.init) ?? stem).*")
            }
        }
    }

    /// `NAME.expected` named on the command line: the recording beside it.
    private mutating func addRecording(for expected: String) {
        let stem = GoldenCase.stem(of: expected)
        let slash = stem.lastIndex(of: "/")
        let folder = slash.map { String(stem[..<$0]) } ?? "."
        let prefix = (slash.map { String(stem[stem.index(after: $0)...]) } ?? stem) + "."
        let matches = (Directory.names(in: folder) ?? []).filter {
            $0.hasPrefix(prefix) && !$0.hasSuffix(GoldenCase.expectedExtension)
        }
        guard let name = matches.first else {
            problems.append("\(expected): no recording beside it named \(prefix)*")
            return
        }
        cases.append(GoldenCase(input: slash == nil ? name : folder + "/" + name))
    }
}
