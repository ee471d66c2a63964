internal import CYAML

/// Reads YAML with libyaml, the parser fusuma's Ruby (Psych) uses, so what
/// fusuma accepts is accepted here: tabs after values, anchors, aliases, merge
/// keys, flow mappings and block scalars. Returns every document read; on a
/// syntax error, what was read before it as well, and the error.
public enum YAMLReader {
    /// Deeper than any configuration nests, shallow enough for the readers' recursion.
    public static let maxDepth = 256
    /// Nodes, counting every alias's copy: a "billion laughs" stops here.
    public static let maxNodes = 1_000_000

    public struct Failure: Error, Equatable, Sendable {
        public var line: Int
        public var message: String
    }

    public struct Documents: Sendable {
        /// The documents' roots, nil for an empty document.
        public var roots: [YAMLNode?] = []
        public var failure: Failure?
        /// Later keys that replaced earlier ones in the same mapping, as Ruby's hashes do.
        public var duplicates: [(line: Int, key: String, earlier: Int)] = []
    }

    private enum Frame {
        case sequence(line: Int, anchor: String?, items: [YAMLNode])
        case mapping(line: Int, anchor: String?, items: [YAMLNode])
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
                    let line = Int(parser.problem_mark.line) + 1
                    builder.fail(Failure(line: line, message: "\(problem)\(context)"))
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
        }
        return out
    }

    private struct Builder {
        var stack: [Frame] = []
        var roots: [YAMLNode?] = []
        var anchors: [String: YAMLNode] = [:]
        var failure: Failure?
        var duplicates: [(line: Int, key: String, earlier: Int)] = []
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
                let node = YAMLNode(line: line, value: .scalar(text, plain: s.style == YAML_PLAIN_SCALAR_STYLE), size: 1)
                finish(node, anchor: string(s.anchor))
            case YAML_ALIAS_EVENT:
                let name = string(event.data.alias.anchor) ?? ""
                guard let node = anchors[name] else {
                    fail(Failure(line: line, message: "the alias *\(name) names no anchor (&\(name)) before it"))
                    return
                }
                var copy = node
                copy.line = line
                finish(copy, anchor: nil)
            case YAML_SEQUENCE_START_EVENT:
                guard stack.count < YAMLReader.maxDepth else {
                    fail(Failure(line: line, message: "nested deeper than \(YAMLReader.maxDepth) levels; no configuration nests so deep"))
                    return
                }
                stack.append(.sequence(line: line, anchor: string(event.data.sequence_start.anchor), items: []))
            case YAML_MAPPING_START_EVENT:
                guard stack.count < YAMLReader.maxDepth else {
                    fail(Failure(line: line, message: "nested deeper than \(YAMLReader.maxDepth) levels; no configuration nests so deep"))
                    return
                }
                stack.append(.mapping(line: line, anchor: string(event.data.mapping_start.anchor), items: []))
            case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                closeTop()
            default:
                break
            }
        }

        /// Closes the innermost open sequence or mapping into a node.
        mutating func closeTop() {
            guard let frame = stack.popLast() else { return }
            switch frame {
            case .sequence(let line, let anchor, let items):
                finish(YAMLNode(line: line, value: .sequence(items), size: items.reduce(1) { $0 &+ $1.size }), anchor: anchor)
            case .mapping(let line, let anchor, let items):
                finish(mapping(line: line, items: items), anchor: anchor)
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

        mutating func finish(_ node: YAMLNode, anchor: String?) {
            total = total &+ node.size
            if total > YAMLReader.maxNodes, failure == nil {
                fail(Failure(line: node.line, message: "more than \(YAMLReader.maxNodes) nodes once aliases are expanded; aliases that copy each other over and over"))
                return
            }
            if let anchor { anchors[anchor] = node }
            guard let top = stack.popLast() else {
                documentRoot = node
                return
            }
            switch top {
            case .sequence(let line, let a, var items):
                items.append(node)
                stack.append(.sequence(line: line, anchor: a, items: items))
            case .mapping(let line, let a, var items):
                items.append(node)
                stack.append(.mapping(line: line, anchor: a, items: items))
            }
        }

        /// Pairs the keys with their values, applies merge keys (`<<`: the merged
        /// mappings' keys that the mapping does not give itself), and keeps the
        /// later of two equal keys, as Ruby's Hash does.
        mutating func mapping(line: Int, items: [YAMLNode]) -> YAMLNode {
            var own: [YAMLPair] = []
            var merged: [YAMLPair] = []
            var index = 0
            while index + 1 < items.count {
                let key = items[index], value = items[index + 1]
                index += 2
                if case .scalar("<<", true) = key.value {
                    let sources = value.items ?? [value]
                    for source in sources {
                        for pair in source.pairs ?? [] where !merged.contains(where: { same($0.key, pair.key) }) {
                            merged.append(pair)
                        }
                    }
                    continue
                }
                if let earlier = own.firstIndex(where: { same($0.key, key) }) {
                    duplicates.append((line: key.line, key: key.scalar ?? "?", earlier: own[earlier].key.line))
                    own.remove(at: earlier)
                }
                own.append(YAMLPair(key: key, value: value))
            }
            for pair in merged where !own.contains(where: { same($0.key, pair.key) }) {
                own.append(pair)
            }
            let size = own.reduce(1) { $0 &+ $1.key.size &+ $1.value.size }
            return YAMLNode(line: line, value: .mapping(own), size: size)
        }

        func same(_ a: YAMLNode, _ b: YAMLNode) -> Bool {
            guard let x = a.scalar, let y = b.scalar else { return false }
            return x == y
        }

        func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
            guard let pointer else { return nil }
            return String(cString: pointer)
        }
    }
}
