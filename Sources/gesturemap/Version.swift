/// The one place the version is written: `gesturemap --version` prints it,
/// scripts/package makes it the Debian package's version and the man page's
/// header, and scripts/test checks docs/gesturemap.1 says the same.
let releaseVersion = "0.2.0"
