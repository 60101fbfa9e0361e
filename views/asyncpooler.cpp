#include "asyncpooler.h"

#include <QPromise>
#include <QThreadPool>

#include <algorithm>
#include <memory>

namespace kvl {

AsyncPooler::AsyncPooler(QObject* parent) : QObject(parent)
{
    connect(&m_watcher, &QFutureWatcher<PooledGrid>::finished, this, [this] {
        const QFuture<PooledGrid> future = m_watcher.future();
        if (future.resultCount() == 0)
            return;
        m_busy = false;
        emit pooledAvailable(future.result());
    });
}

std::optional<PooledGrid> AsyncPooler::request(const QVector<double>& values, int rows, int cols,
                                               int maxBins, PoolMode mode,
                                               const QVector<bool>& flags)
{
    return requestRange(values, rows, cols, 0, cols, maxBins, mode, flags);
}

std::optional<PooledGrid> AsyncPooler::requestRange(const QVector<double>& values, int rows,
                                                    int cols, int begin, int end, int maxBins,
                                                    PoolMode mode, const QVector<bool>& flags)
{
    cancel();
    if (qsizetype(rows) * std::max(0, end - begin) <= syncLimit)
        return poolColumnRange(values, rows, cols, begin, end, maxBins, mode, flags);

    // QVector copies share their data: the worker reads the caller's matrix
    // without copying it, and keeps it alive if the view drops it meanwhile.
    auto promise = std::make_shared<QPromise<PooledGrid>>();
    m_watcher.setFuture(promise->future());
    m_busy = true;
    QThreadPool::globalInstance()->start([promise, values, rows, cols, begin, end, maxBins, mode,
                                          flags] {
        promise->start();
        promise->addResult(poolColumnRange(values, rows, cols, begin, end, maxBins, mode, flags));
        promise->finish();
    });
    return std::nullopt;
}

void AsyncPooler::cancel()
{
    // Watching an empty future detaches the pending one; its result is never delivered.
    m_watcher.setFuture(QFuture<PooledGrid>());
    m_busy = false;
}

} // namespace kvl
