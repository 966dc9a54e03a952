// Settings shows 记忆来源, 召回 and 模型 first; every other option sits under 高级, folded until opened.
import type { Frame, Page } from 'playwright-core';

/** Opens 高级 on the Settings page (a no-op when it is open already). */
export async function openAdvancedSettings(page: Page | Frame): Promise<void> {
  const group = page.getByTestId('settings-group-advanced');
  await group.waitFor();
  if ((await group.getAttribute('data-open')) !== 'true') await page.getByTestId('settings-advanced-toggle').click();
  await page.getByTestId('settings-section-inject').waitFor();
}
