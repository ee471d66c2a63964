/// Short texts from sysfs and config lines, without their blanks around.
extension String {
    func trimmed(of set: String) -> String {
        var s = Substring(self)
        while let c = s.first, set.contains(c) { s.removeFirst() }
        while let c = s.last, set.contains(c) { s.removeLast() }
        return String(s)
    }
}
