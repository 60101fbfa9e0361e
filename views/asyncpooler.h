#pragma once

#include "columnpooling.h"

#include <QFutureWatcher>
#include <QObject>

#include <optional>

namespace kvl {

// Runs poolColumns() for a view. Small matrices are pooled at once; large ones
// on the global thread pool, so a long context never freezes the window. A new
// request supersedes any pending one: its result is dropped, never drawn.
class AsyncPooler : public QObject
{
    Q_OBJECT
  public:
    // Above this many cells pooling leaves the GUI thread (~10 ms of work).
    static constexpr qsizetype syncLimit = qsizetype(1) << 20;

    explicit AsyncPooler(QObject* parent = nullptr);

    // The grid when pooled synchronously; nullopt when it will arrive through
    // pooledAvailable().
    std::optional<PooledGrid> request(const QVector<double>& values, int rows, int cols,
                                      int maxBins, PoolMode mode, const QVector<bool>& flags = {});
    // Pools only the columns [begin, end) (a zoomed view); the work, and whether it
    // leaves the GUI thread, follows the visible cells.
    std::optional<PooledGrid> requestRange(const QVector<double>& values, int rows, int cols,
                                           int begin, int end, int maxBins, PoolMode mode,
                                           const QVector<bool>& flags = {});
    // Drops a pending request.
    void cancel();
    bool isBusy() const { return m_busy; }

  signals:
    void pooledAvailable(const kvl::PooledGrid& grid);

  private:
    QFutureWatcher<PooledGrid> m_watcher;
    bool m_busy = false;
};

} // namespace kvl
