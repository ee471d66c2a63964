import Glibc

/// The user this process runs as, by name, for fixes people copy: a command
/// that names them is one to run, not one to edit first.
public enum SystemUser {
    /// The password database's name for the effective user; `USER` when it
    /// has none (a container's unnamed uid), else the number.
    public static func name(environment: [String: String] = [:]) -> String {
        let uid = geteuid()
        if let entry = getpwuid(uid), let name = entry.pointee.pw_name { return String(cString: name) }
        if let user = environment["USER"], !user.isEmpty { return user }
        return String(uid)
    }

    /// Whether the group exists, and whether `user` is in it by the group
    /// database (a login starts with those) and in this process's groups now.
    public struct Membership: Equatable, Sendable {
        public var groupExists: Bool
        public var listed: Bool
        public var inProcess: Bool
    }

    public static func membership(of user: String, in group: String) -> Membership {
        guard let entry = getgrnam(group) else { return Membership(groupExists: false, listed: false, inProcess: false) }
        let gid = entry.pointee.gr_gid
        var listed = false
        if let pw = getpwnam(user) {
            if pw.pointee.pw_gid == gid { listed = true }
            var count: Int32 = 64
            var groups = [gid_t](repeating: 0, count: Int(count))
            var found = getgrouplist(user, pw.pointee.pw_gid, &groups, &count) >= 0
            if !found {
                // Too few places: count now says how many it needs.
                groups = [gid_t](repeating: 0, count: Int(max(count, 1)))
                count = Int32(groups.count)
                found = getgrouplist(user, pw.pointee.pw_gid, &groups, &count) >= 0
            }
            if found { listed = listed || groups.prefix(Int(count)).contains(gid) }
        }
        let current = Int(getgroups(0, nil))
        var mine = [gid_t](repeating: 0, count: max(current, 1))
        let got = getgroups(Int32(mine.count), &mine)
        let inProcess = getegid() == gid || (got > 0 && mine.prefix(Int(got)).contains(gid))
        return Membership(groupExists: true, listed: listed, inProcess: inProcess)
    }
}
