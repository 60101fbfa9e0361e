#include "apptheme.h"

#include <QApplication>
#include <QPalette>
#include <QStyle>

namespace kvl {

namespace {

QPalette darkApplicationPalette()
{
    QPalette p;
    const QColor window(0x2B, 0x2D, 0x31), base(0x1E, 0x1F, 0x22), text(0xE6, 0xE6, 0xE6);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, window);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, window);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::ToolTipBase, base);
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::Highlight, QColor(0x3D, 0x9A, 0xE0));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::PlaceholderText, QColor(0x90, 0x90, 0x90));
    p.setColor(QPalette::Disabled, QPalette::WindowText, QColor(0x8A, 0x8A, 0x8A));
    p.setColor(QPalette::Disabled, QPalette::Text, QColor(0x8A, 0x8A, 0x8A));
    p.setColor(QPalette::Disabled, QPalette::ButtonText, QColor(0x8A, 0x8A, 0x8A));
    return p;
}

} // namespace

void applyApplicationTheme(Theme theme)
{
    if (theme == Theme::Dark) {
        QApplication::setStyle(QStringLiteral("Fusion"));
        QApplication::setPalette(darkApplicationPalette());
    } else {
        QApplication::setPalette(QApplication::style()->standardPalette());
    }
}

} // namespace kvl
