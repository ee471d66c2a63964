// Internal, so a module that imports GestureTools never loads libxml2's headers:
// they bring the system's ICU, whose UErrorCode clashes with Foundation's own
// ICU in any module that also imports FoundationXML.
internal import CLibXML2

/// An XML element as libxml2 read it: its name, attributes, text and children,
/// with its line. Copied out of libxml2's tree, so nothing of libxml2 outlives the read.
public struct XMLTreeElement: Sendable {
    public var name: String
    public var line: Int
    public var attributes: [(name: String, value: String)]
    public var text: String
    public var children: [XMLTreeElement]

    public func attribute(_ name: String) -> String? {
        attributes.last { $0.name == name }?.value
    }

    /// The text of the last child element of that name (Touchégg keeps the last
    /// of two `<modifiers>`), trimmed.
    public func childText(_ name: String) -> String? {
        children.last { $0.name == name }.map { $0.text.trimmingWhitespace }
    }
}

/// Reads an XML document with libxml2, without the network and without
/// expanding external entities, recovering what it can from a broken file.
public enum XMLElementTree {
    public struct Problem: Equatable, Sendable {
        public var line: Int
        public var message: String
    }

    public struct Document: Sendable {
        public var root: XMLTreeElement?
        public var problems: [Problem]
    }

    /// Deeper than any configuration nests; libxml2 itself stops at 256.
    static let maxDepth = 64

    private final class ProblemBox {
        var problems: [Problem] = []
    }

    public static func read(_ bytes: [UInt8], name: String) -> Document {
        let box = ProblemBox()
        let context = Unmanaged.passUnretained(box).toOpaque()
        let handler: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<xmlError>?) -> Void = { context, error in
            guard let context, let error else { return }
            let box = Unmanaged<ProblemBox>.fromOpaque(context).takeUnretainedValue()
            guard box.problems.count < 100 else { return }
            let message = error.pointee.message.map { String(cString: $0) } ?? "malformed XML"
            box.problems.append(Problem(line: Int(error.pointee.line), message: message.trimmingWhitespace))
        }
        xmlSetStructuredErrorFunc(context, handler)
        defer { xmlSetStructuredErrorFunc(nil, nil) }
        let options = Int32(XML_PARSE_RECOVER.rawValue | XML_PARSE_NONET.rawValue | XML_PARSE_BIG_LINES.rawValue | XML_PARSE_NOWARNING.rawValue)
        let doc: xmlDocPtr? = bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress.flatMap { base in
                base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                    xmlReadMemory($0, Int32(clamping: buffer.count), name, "UTF-8", options)
                }
            }
        }
        defer { if let doc { xmlFreeDoc(doc) } }
        let root = doc.flatMap { xmlDocGetRootElement($0) }.map { element($0, depth: 0) }
        return Document(root: root, problems: box.problems)
    }

    private static func element(_ node: xmlNodePtr, depth: Int) -> XMLTreeElement {
        var out = XMLTreeElement(name: node.pointee.name.map { String(cString: $0) } ?? "", line: Int(xmlGetLineNo(node)),
                             attributes: [], text: "", children: [])
        var attribute = node.pointee.properties
        while let a = attribute {
            let name = a.pointee.name.map { String(cString: $0) } ?? ""
            out.attributes.append((name, text(of: a.pointee.children)))
            attribute = a.pointee.next
        }
        var child = node.pointee.children
        while let c = child {
            switch c.pointee.type {
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                if let content = c.pointee.content { out.text += String(cString: content) }
            case XML_ELEMENT_NODE:
                if depth < maxDepth { out.children.append(element(c, depth: depth + 1)) }
            default:
                break
            }
            child = c.pointee.next
        }
        return out
    }

    private static func text(of first: xmlNodePtr?) -> String {
        var out = ""
        var node = first
        while let n = node {
            if let content = n.pointee.content { out += String(cString: content) }
            node = n.pointee.next
        }
        return out
    }
}
