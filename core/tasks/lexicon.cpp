#include "tasks/lexicon.h"

#include "tasks/rng.h"

namespace kvl::lexicon {
namespace {
QStringList words(const char* text)
{
    return QString::fromLatin1(text).split(QLatin1Char(' '), Qt::SkipEmptyParts);
}

QString pick(Rng& rng, const QStringList& list)
{
    return list.at(rng.below(int(list.size())));
}

const QStringList& places()
{
    static const QStringList list =
        words("park river market bridge garden station harbour forest square library hill "
              "school beach farm tower");
    return list;
}
const QStringList& adjectives()
{
    static const QStringList list =
        words("quiet cold warm bright dark busy calm windy sunny grey long short soft loud "
              "still");
    return list;
}
const QStringList& verbs()
{
    static const QStringList list =
        words("sleeps waits sits runs plays walks rests hides sings eats");
    return list;
}
} // namespace

const QStringList& firstNames()
{
    static const QStringList list =
        words("Anna Ben Clara David Emma Felix Greta Hugo Ida Jonas Karl Lena Mia Nils Olga "
              "Paul Rosa Sara Tom Ulla Vera Walter Yara Zoe Alma Bruno Cora Dora Erik Frida "
              "Gus Hanna Ivan Jana Kurt Lars Marta Nora Otto Petra");
    return list;
}
const QStringList& lastNames()
{
    static const QStringList list =
        words("Berg Stone Lee Brandt Fenn Hart Wood Frost Lang Moss Reed Lake Vogel Kern Marsh "
              "Field Rowe Parr Vance Cole Dunn Hale Nash Pike Quinn Ross Shaw Thorn Webb York "
              "Ash Bell Cruz Dale Eng Ford Gant Holt Irwin Jensen");
    return list;
}
const QStringList& cities()
{
    static const QStringList list =
        words("Paris Rome Oslo Madrid Berlin Vienna Prague Dublin Lisbon Athens Cairo Tokyo "
              "Seoul Delhi Sydney Boston Denver Chicago Toronto Havana Nairobi Dakar Riga "
              "Tallinn Porto Milan Geneva Zurich Munich Bergen");
    return list;
}
const QStringList& colours()
{
    static const QStringList list =
        words("red blue green yellow orange purple pink brown black white silver gold");
    return list;
}
const QStringList& animals()
{
    static const QStringList list =
        words("cat dog fox owl horse rabbit mouse goat sheep duck swan bear wolf deer frog "
              "crow seal otter hawk lamb");
    return list;
}
const QStringList& jobs()
{
    static const QStringList list =
        words("baker teacher doctor farmer pilot painter nurse driver cook tailor miner "
              "judge singer writer sailor clerk guard potter smith gardener");
    return list;
}
const QStringList& variables()
{
    static const QStringList list =
        words("Alpha Bravo Charlie Delta Echo Foxtrot Golf Hotel India Juliett Kilo Lima "
              "Mike November Oscar Papa Quebec Romeo Sierra Tango Uniform Victor Whiskey "
              "Xray Yankee Zulu");
    return list;
}
const QStringList& secrets()
{
    static const QStringList list =
        words("tulip anchor pepper lantern velvet comet marble walnut harp cactus meadow "
              "pebble violin maple thunder saffron orchid quartz ember falcon");
    return list;
}
const QStringList& prefixes()
{
    static const QStringList list = words("Sure Okay Noted Done Yes Ready");
    return list;
}

QString fillerSentence(Rng& rng)
{
    const QString colour = pick(rng, colours());
    const QString animal = pick(rng, animals());
    const QString place = pick(rng, places());
    const QString adjective = pick(rng, adjectives());
    const QString city = pick(rng, cities());
    const QString verb = pick(rng, verbs());
    switch (rng.below(8)) {
    case 0:
        return QStringLiteral("The %1 %2 %3 near the %4.").arg(colour, animal, verb, place);
    case 1:
        return QStringLiteral("One %1 walked to the %2 in %3.").arg(animal, place, city);
    case 2:
        return QStringLiteral("It was a %1 day in %2.").arg(adjective, city);
    case 3:
        return QStringLiteral("The %1 was %2 and the sky was %3.").arg(place, adjective, colour);
    case 4:
        // Numbers in the filler keep "find any digits" from solving retrieval.
        return QStringLiteral("There were %1 %2 birds by the %3.")
            .arg(rng.range(2, 99))
            .arg(colour, place);
    case 5:
        return QStringLiteral("Nobody saw the %1 %2 again.").arg(adjective, animal);
    case 6:
        return QStringLiteral("In %1 the %2 is %3 at night.").arg(city, place, adjective);
    default:
        return QStringLiteral("The %1 %2 by the %3.").arg(animal, verb, place);
    }
}

const QStringList& shortSentences()
{
    // From one word up: the sizes combine to any small gap (ContextBuilder).
    static const QStringList list = {
        QStringLiteral("So."),
        QStringLiteral("Yes."),
        QStringLiteral("Then."),
        QStringLiteral("It rained."),
        QStringLiteral("All was calm."),
        QStringLiteral("Time passed."),
        QStringLiteral("Night fell."),
        QStringLiteral("The day ended."),
        QStringLiteral("Birds sang."),
        QStringLiteral("It was late."),
        QStringLiteral("Nothing moved."),
    };
    return list;
}

QStringList fillerWords()
{
    QStringList all = places() + adjectives() + verbs();
    for (const QString& s : shortSentences())
        all << s;
    return all;
}

} // namespace kvl::lexicon
