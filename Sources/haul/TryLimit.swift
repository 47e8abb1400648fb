import ArgumentParser

/// `-t N` as wget takes it: the most attempts in all, where 0 and `inf` mean no limit.
struct TryLimit: ExpressibleByArgument, Equatable {
    /// The attempts asked for; 0 is no limit, as a request's `tries` keeps it.
    let attempts: Int

    init(attempts: Int) { self.attempts = attempts }

    init?(argument: String) {
        if ["inf", "infinite"].contains(argument.lowercased()) {
            attempts = 0
        } else if let number = Int(argument) {
            attempts = number
        } else {
            return nil
        }
    }
}
