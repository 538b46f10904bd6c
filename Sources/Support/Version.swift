/// hlrender's version, one constant for both programs and the library. A release is the commit
/// tagged `v` + this (`make dist` refuses to package a tag that disagrees, and a test keeps the
/// CHANGELOG's newest entry equal to it).
package enum HLRenderVersion {
    package static let current = "0.3.0"
}
