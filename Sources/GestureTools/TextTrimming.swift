/// Short texts (sysfs files, config lines, imported words) without the characters around them.
extension String {
    func trimmed(of set: String) -> String {
        var s = Substring(self)
        while let c = s.first, set.contains(c) { s.removeFirst() }
        while let c = s.last, set.contains(c) { s.removeLast() }
        return String(s)
    }
}
