import type { Metadata, Viewport } from 'next';
import type { ReactNode } from 'react';
import { themeBootScript } from '../client/theme-boot.ts';
import './globals.css';

export const metadata: Metadata = {
  title: 'Engram',
  description: 'Engram long-term memory console',
  robots: { index: false, follow: false },
};

export const viewport: Viewport = { width: 'device-width', initialScale: 1 };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="zh-CN" suppressHydrationWarning>
      <head>
        <script dangerouslySetInnerHTML={{ __html: themeBootScript }} />
      </head>
      <body>{children}</body>
    </html>
  );
}
