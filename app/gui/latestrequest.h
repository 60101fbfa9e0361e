#pragma once

#include "common/error.h"

#include <QFutureWatcher>
#include <QObject>
#include <QPromise>
#include <QThreadPool>

#include <exception>
#include <functional>
#include <memory>

namespace kvl {

// Runs one piece of store work at a time on the thread pool and delivers its
// result on the owner's thread. A new request supersedes the pending one: the
// old result is dropped, never delivered. Destroying the object drops any result.
class LatestRequest : public QObject
{
    Q_OBJECT
  public:
    explicit LatestRequest(QObject* parent = nullptr) : QObject(parent) {}

    // `work` runs on a worker thread (it must not touch widgets); `deliver` or
    // `fail` (with the kvl::Error message, which names the file) on this thread.
    template <typename T>
    void run(std::function<T()> work, std::function<void(const T&)> deliver,
             std::function<void(const QString&)> fail)
    {
        const int generation = ++m_generation;
        m_busy = true;
        emit busyChanged(true);
        auto promise = std::make_shared<QPromise<Outcome<T>>>();
        auto* watcher = new QFutureWatcher<Outcome<T>>(this);
        connect(watcher, &QFutureWatcherBase::finished, this,
                [this, watcher, generation, deliver, fail] {
                    watcher->deleteLater();
                    if (generation != m_generation || watcher->future().resultCount() == 0)
                        return; // superseded
                    m_busy = false;
                    emit busyChanged(false);
                    const Outcome<T> outcome = watcher->future().result();
                    if (outcome.ok)
                        deliver(outcome.value);
                    else
                        fail(outcome.error);
                });
        watcher->setFuture(promise->future());
        QThreadPool::globalInstance()->start([promise, work] {
            promise->start();
            Outcome<T> outcome;
            try {
                outcome.value = work();
                outcome.ok = true;
            } catch (const Error& e) {
                outcome.error = e.message();
            } catch (const std::exception& e) {
                outcome.error = QString::fromUtf8(e.what());
            }
            promise->addResult(std::move(outcome));
            promise->finish();
        });
    }

    // Drops the pending request, if any.
    void cancel()
    {
        ++m_generation;
        if (m_busy) {
            m_busy = false;
            emit busyChanged(false);
        }
    }
    bool isBusy() const { return m_busy; }

  signals:
    void busyChanged(bool busy);

  private:
    template <typename T> struct Outcome
    {
        T value{};
        bool ok = false;
        QString error;
    };

    int m_generation = 0;
    bool m_busy = false;
};

} // namespace kvl
