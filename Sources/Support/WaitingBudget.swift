import Glibc

/// Bytes that parallel work may hold together, where work waits for room instead of being
/// refused (a batch's golden comparisons: each decodes two images and draws a panel). A job
/// larger than the whole budget runs when it is alone, so nothing waits for ever; memory is
/// bounded by the budget (or the one job), not by the number of threads.
package final class WaitingBudget: @unchecked Sendable {
    package let total: Int
    private var used = 0
    private var mutex = pthread_mutex_t()
    private var room = pthread_cond_t()

    package init(bytes: Int) {
        total = max(0, bytes)
        pthread_mutex_init(&mutex, nil)
        pthread_cond_init(&room, nil)
    }

    deinit {
        pthread_cond_destroy(&room)
        pthread_mutex_destroy(&mutex)
    }

    /// Runs `body` once `bytes` fit beside what others hold, then gives them back.
    package func with<T, E: Error>(_ bytes: Int, _ body: () throws(E) -> T) throws(E) -> T {
        let bytes = max(0, bytes)
        pthread_mutex_lock(&mutex)
        while used > 0 && used + bytes > total { pthread_cond_wait(&room, &mutex) }
        used += bytes
        pthread_mutex_unlock(&mutex)
        defer {
            pthread_mutex_lock(&mutex)
            used -= bytes
            pthread_cond_broadcast(&room)
            pthread_mutex_unlock(&mutex)
        }
        return try body()
    }
}
