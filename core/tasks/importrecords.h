#pragma once

#include "tasks/span.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QString>
#include <initializer_list>
#include <vector>

namespace kvl {

// One record of a dataset file, with where it sits ("line 7" in JSONL, "record 7" in a
// JSON array; 1-based) so that every error can name it.
struct ImportRecord
{
    QJsonObject object;
    QString where;
};

// Reads a dataset file that is either JSONL (one object per line, blank lines skipped)
// or one JSON array of objects (HotpotQA and LongBench-v2 ship that way). Malformed
// JSON or a non-object record is an error naming the file and the line or record.
std::vector<ImportRecord> readImportRecords(const QString& path);

// Reads the fields of one record. Every error names the file, the record, the record's
// id once known, and the field: "f.jsonl: line 3 (id 'a1'): field 'answers': missing".
class RecordReader
{
  public:
    RecordReader(QString path, QString where, QJsonObject object);

    void setId(const QString& id) { m_id = id; }
    const QJsonObject& object() const { return m_object; }

    [[noreturn]] void fail(const QString& field, const QString& problem) const;

    bool has(const QString& key) const { return m_object.contains(key); }
    QJsonValue value(const QString& key) const; // required, any type but null
    QString string(const QString& key) const;   // required string (may be empty)
    QString optionalString(const QString& key) const;
    QJsonArray array(const QString& key) const; // required array
    qint64 integer(const QString& key) const;
    // A string, or an integer written in decimal (ids such as IFEval's `key`).
    QString idText(const QString& key) const;
    // A required array whose items are all strings; an empty one is an error unless
    // allowEmpty.
    QStringList strings(const QString& key, bool allowEmpty = false) const;

    // The same checks on a value found inside the record (`path` names it).
    QString stringAt(const QJsonValue& v, const QString& path) const;
    QJsonArray arrayAt(const QJsonValue& v, const QString& path) const;
    QJsonObject objectAt(const QJsonValue& v, const QString& path) const;
    qint64 integerAt(const QJsonValue& v, const QString& path) const;

  private:
    QString m_path;
    QString m_where;
    QString m_id;
    QJsonObject m_object;
};

// The question as the generated suites write it: "\nQuestion: <q>\nAnswer:".
QString importQuestion(const QString& question);

// [begin, end) shrunk past leading and trailing whitespace.
std::pair<int, int> trimRange(const QString& text, int begin, int end);

// A context span of `kind` over [begin, end) trimmed of whitespace.
Span contextSpan(const QString& context, SpanKind kind, int begin, int end, const QString& label);

// A short quote of `text` for an error message (at most ~60 characters).
QString quoteForError(const QString& text);

// Copies the members of `from` named by `keys` into `meta`, leaving out absent and null
// ones: a source's optional record fields that the sample keeps as metadata.
void copyPresentMembers(const QJsonObject& from, std::initializer_list<const char*> keys,
                        QJsonObject& meta);

} // namespace kvl
