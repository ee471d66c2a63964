internal import CYAML

/// Reads YAML with libyaml, the parser fusuma's Ruby (Psych) uses, so what
/// fusuma accepts is accepted here: tabs after values, anchors, aliases, merge
/// keys, flow mappings and block scalars. Returns every document read; on a
/// syntax error, what was read before it as well, and the error.
public enum YAMLReader {
    /// Deeper than any configuration nests, shallow enough for the readers' recursion.
    public static let maxDepth = 256
    /// Nodes, counting every alias's copy: a "billion laughs" stops here, and
    /// so does a file of more nodes than any configuration has (a few hundred),
    /// before it costs more memory than a configuration should.
    public static let maxNodes = 250_000

    public struct Failure: Error, Equatable, Sendable {
        public var line: Int
        public var message: String
    }

    public struct Documents: Sendable {
        /// The documents' roots, nil for an empty document.
        public var roots: [YAMLNode?] = []
        public var failure: Failure?
        /// Later keys that replaced earlier ones in the same mapping, as Ruby's
        /// hashes do, with the document they are in (0 for the first).
        public var duplicates: [Duplicate] = []
        /// Keys written as a list, a mapping or an alias after the first key of
        /// a mapping of the first document: fusuma's duplicate-key check reads
        /// every key's text and fails on them.
        public var keysWithNoText: [Int] = []
    }

    public struct Duplicate: Sendable, Equatable {
        public var line: Int
        public var key: String
        public var earlier: Int
        public var document: Int
    }

    /// An open sequence or mapping; its items grow in place (a copy per item would make
    /// a mapping of n keys cost n squared).
    private struct Frame {
        var isMapping: Bool
        var line: Int
        var anchor: String?
        var items: [YAMLNode] = []
    }

    public static func read(_ bytes: [UInt8]) -> Documents {
        var out = Documents()
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else {
            out.failure = Failure(line: 1, message: "libyaml could not start (out of memory)")
            return out
        }
        defer { yaml_parser_delete(&parser) }
        // libyaml reads the bytes where they are, so everything happens inside this closure.
        bytes.withUnsafeBufferPointer { buffer in
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            var builder = Builder()
            while true {
                var event = yaml_event_t()
                guard yaml_parser_parse(&parser, &event) == 1 else {
                    let problem = parser.problem.map { String(cString: $0) } ?? "malformed YAML"
                    let context = parser.context.map { " " + String(cString: $0) } ?? ""
                    // A reading error (bytes that are not UTF-8) gives a byte offset, not a mark.
                    let line = parser.error == YAML_READER_ERROR
                        ? TextLines(bytes).line(ofOffset: parser.problem_offset) : Int(parser.problem_mark.line) + 1
                    let what = parser.error == YAML_READER_ERROR ? "bytes that are not UTF-8 (\(problem))" : "\(problem)\(context)"
                    builder.fail(Failure(line: line, message: what))
                    break
                }
                defer { yaml_event_delete(&event) }
                if event.type == YAML_STREAM_END_EVENT { break }
                builder.handle(&event)
                if builder.failure != nil { break }
            }
            builder.salvage()
            out.roots = builder.roots
            out.failure = builder.failure
            out.duplicates = builder.duplicates
            out.keysWithNoText = builder.keysWithNoText
        }
        return out
    }

    private struct Builder {
        var stack: [Frame] = []
        var roots: [YAMLNode?] = []
        var anchors: [String: YAMLNode] = [:]
        var failure: Failure?
        var duplicates: [Duplicate] = []
        var keysWithNoText: [Int] = []
        var total = 0
        var inDocument = false
        var documentRoot: YAMLNode?

        mutating func fail(_ f: Failure) {
            if failure == nil { failure = f }
        }

        mutating func handle(_ event: inout yaml_event_t) {
            let line = Int(event.start_mark.line) + 1
            switch event.type {
            case YAML_DOCUMENT_START_EVENT:
                inDocument = true
                documentRoot = nil
                anchors = [:]
            case YAML_DOCUMENT_END_EVENT:
                roots.append(documentRoot)
                inDocument = false
            case YAML_SCALAR_EVENT:
                let s = event.data.scalar
                let text = s.value.map { String(decoding: UnsafeBufferPointer(start: $0, count: Int(s.length)), as: UTF8.self) } ?? ""
                let node = YAMLNode(line: line, value: .scalar(text, plain: s.style == YAML_PLAIN_SCALAR_STYLE), size: 1, tag: string(s.tag))
                finish(node, anchor: string(s.anchor))
            case YAML_ALIAS_EVENT:
                let name = string(event.data.alias.anchor) ?? ""
                guard let node = anchors[name] else {
                    fail(Failure(line: line, message: "the alias *\(name) names no anchor (&\(name)) before it"))
                    return
                }
                var copy = node
                copy.line = line
                copy.isAlias = true
                finish(copy, anchor: nil, adding: copy.size)
            case YAML_SEQUENCE_START_EVENT:
                guard stack.count < YAMLReader.maxDepth else {
                    fail(Failure(line: line, message: "nested deeper than \(YAMLReader.maxDepth) levels; no configuration nests so deep"))
                    return
                }
                stack.append(Frame(isMapping: false, line: line, anchor: string(event.data.sequence_start.anchor)))
            case YAML_MAPPING_START_EVENT:
                guard stack.count < YAMLReader.maxDepth else {
                    fail(Failure(line: line, message: "nested deeper than \(YAMLReader.maxDepth) levels; no configuration nests so deep"))
                    return
                }
                stack.append(Frame(isMapping: true, line: line, anchor: string(event.data.mapping_start.anchor)))
            case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                closeTop()
            default:
                break
            }
        }

        /// Closes the innermost open sequence or mapping into a node.
        mutating func closeTop() {
            guard let frame = stack.popLast() else { return }
            if frame.isMapping {
                finish(mapping(line: frame.line, items: frame.items), anchor: frame.anchor)
            } else {
                finish(YAMLNode(line: frame.line, value: .sequence(frame.items), size: frame.items.reduce(1) { $0 &+ $1.size }), anchor: frame.anchor)
            }
        }

        /// On an error, what was read so far is closed as it stands, so the rest can still be used.
        mutating func salvage() {
            while !stack.isEmpty { closeTop() }
            if inDocument {
                roots.append(documentRoot)
                inDocument = false
            }
        }

        /// `adding`: the nodes it brings: one, or all of an alias's copy.
        mutating func finish(_ node: YAMLNode, anchor: String?, adding: Int = 1) {
            total = total &+ adding
            if total > YAMLReader.maxNodes, failure == nil {
                fail(Failure(line: node.line, message: "more than \(YAMLReader.maxNodes) nodes once aliases are expanded; no configuration has so many (aliases that copy each other over and over make them)"))
                return
            }
            if let anchor { anchors[anchor] = node }
            guard !stack.isEmpty else {
                documentRoot = node
                return
            }
            stack[stack.count - 1].items.append(node)
        }

        /// Pairs the keys with their values, applies merge keys (`<<`: the merged
        /// mappings' keys that the mapping does not give itself), and keeps the
        /// later of two equal keys, as Ruby's Hash does. Keys are told apart by
        /// their text, as fusuma's duplicate check does (`1` and `"1"` are one).
        mutating func mapping(line: Int, items: [YAMLNode]) -> YAMLNode {
            var own: [YAMLPair?] = []
            var ownIndex: [String: Int] = [:]
            var seenLine: [String: Int] = [:]
            var merged: [YAMLPair] = []
            var mergedKeys = Set<String>()
            var index = 0
            var keyWithNoText = false
            while index + 1 < items.count {
                let key = items[index], value = items[index + 1]
                index += 2
                keyWithNoText = keyWithNoText || key.scalar == nil || key.isAlias
                if index > 2, roots.isEmpty, keyWithNoText {
                    keysWithNoText.append(key.line)
                }
                if let text = key.scalar {
                    if let earlier = seenLine[text] {
                        duplicates.append(Duplicate(line: key.line, key: text, earlier: earlier, document: roots.count))
                    }
                    seenLine[text] = key.line
                }
                if case .scalar("<<", true) = key.value {
                    for source in value.items ?? [value] {
                        for pair in source.pairs ?? [] {
                            let text = pair.key.scalar ?? ""
                            if pair.key.scalar == nil || mergedKeys.insert(text).inserted { merged.append(pair) }
                        }
                    }
                    continue
                }
                if let text = key.scalar, let earlier = ownIndex[text] {
                    own[earlier] = nil
                }
                if let text = key.scalar { ownIndex[text] = own.count }
                own.append(YAMLPair(key: key, value: value))
            }
            var pairs = own.compactMap { $0 }
            for pair in merged where pair.key.scalar.map({ ownIndex[$0] == nil }) ?? true {
                pairs.append(pair)
            }
            let size = pairs.reduce(1) { $0 &+ $1.key.size &+ $1.value.size }
            return YAMLNode(line: line, value: .mapping(pairs), size: size)
        }

        func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
            guard let pointer else { return nil }
            return String(cString: pointer)
        }
    }
}
