#include "runsessions.h"

namespace kvl {

RunSessions::RunSessions(QObject* parent)
    : QObject(parent), m_idle(new RunSession(this)), m_current(m_idle)
{}

void RunSessions::setStages(const RunStages& stages)
{
    m_stages = stages;
    m_idle->setStages(stages);
    for (RunSession* session : std::as_const(m_byPath))
        session->setStages(stages);
}

RunSession* RunSessions::sessionFor(const QString& path)
{
    if (path.isEmpty())
        return m_idle;
    if (RunSession* known = find(path))
        return known;
    auto* session = new RunSession(this);
    session->setStages(m_stages);
    session->carrySelection(m_current->selection());
    m_byPath.insert(path, session);
    return session;
}

void RunSessions::makeCurrent(RunSession* session)
{
    if (session == m_current)
        return;
    RunSession* previous = m_current;
    previous->suspend();
    if (previous != m_idle)
        m_previous = previous;
    m_current = session;
    emit currentChanged(session, previous);
}

RunSession* RunSessions::open(const RunRequest& request)
{
    RunSession* session = sessionFor(request.path);
    makeCurrent(session);
    session->open(request);
    return session;
}

RunSession* RunSessions::present(const RunViewData& data)
{
    RunSession* session = sessionFor(data.path);
    makeCurrent(session);
    session->present(data);
    return session;
}

void RunSessions::closeCurrent()
{
    RunSession* closing = m_current;
    if (closing == m_idle) {
        closing->close();
        return;
    }
    m_byPath.remove(m_byPath.key(closing));
    closing->close(); // every page bound to it clears
    m_idle->carrySelection(closing->selection());
    makeCurrent(m_idle);
    closing->deleteLater();
}

void RunSessions::discard(const QString& path)
{
    RunSession* refused = find(path);
    if (!refused)
        return;
    m_byPath.remove(path);
    if (refused == m_current) {
        RunSession* back = m_previous && m_previous != refused ? m_previous.data() : m_idle;
        m_idle->carrySelection(refused->selection());
        makeCurrent(back);
        if (back != m_idle)
            back->open({back->path(), {}, -1.0, {}});
    }
    refused->deleteLater();
}

} // namespace kvl
