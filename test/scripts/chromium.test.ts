import { describe, expect, it } from 'vitest';
import { findInstalledChromium, noChromiumMessage } from '../../scripts/lib/chromium';

/** A machine made of the given files (and the folders they imply), nothing else. */
function machine(files: string[]) {
  const set = new Set(files);
  return {
    home: '/home/dev',
    exists: (path: string) => set.has(path),
    list: (dir: string) => [...new Set(files.filter((f) => f.startsWith(`${dir}/`)).map((f) => f.slice(dir.length + 1).split('/')[0]!))],
  };
}

describe('findInstalledChromium', () => {
  const linux = { platform: 'linux' as const };

  it('takes CHROMIUM_PATH first, and refuses one that points at nothing', () => {
    const m = machine(['/opt/my/chrome', '/usr/bin/chromium']);
    const env = { CHROMIUM_PATH: '/opt/my/chrome', PATH: '/usr/bin' };
    expect(findInstalledChromium({ ...linux, ...m, env })).toEqual({ path: '/opt/my/chrome', source: 'CHROMIUM_PATH' });
    expect(() => findInstalledChromium({ ...linux, ...m, env: { ...env, CHROMIUM_PATH: '/nope' } })).toThrow(/CHROMIUM_PATH is \/nope/);
  });

  it("finds the system's Chromium or Chrome on PATH before Playwright's cache", () => {
    const m = machine(['/usr/bin/google-chrome-stable', '/home/dev/.cache/ms-playwright/chromium-1200/chrome-linux/chrome']);
    expect(findInstalledChromium({ ...linux, ...m, env: { PATH: '/usr/local/bin:/usr/bin' } })?.path).toBe('/usr/bin/google-chrome-stable');
  });

  it("takes the newest revision in Playwright's cache, a full Chromium before a headless shell", () => {
    const cache = '/home/dev/.cache/ms-playwright';
    const m = machine([
      `${cache}/chromium-1100/chrome-linux/chrome`,
      `${cache}/chromium-1200/chrome-linux64/chrome`,
      `${cache}/chromium_headless_shell-1200/chrome-headless-shell-linux64/chrome-headless-shell`,
      `${cache}/ffmpeg-1011/ffmpeg-linux`,
    ]);
    expect(findInstalledChromium({ ...linux, ...m, env: { PATH: '/usr/bin' } })).toEqual({
      path: `${cache}/chromium-1200/chrome-linux64/chrome`,
      source: "Playwright's cache (chromium-1200)",
    });
  });

  it('honours PLAYWRIGHT_BROWSERS_PATH and the macOS locations', () => {
    const shared = machine(['/srv/browsers/chromium_headless_shell-1300/chrome-linux/headless_shell']);
    expect(findInstalledChromium({ ...linux, ...shared, env: { PLAYWRIGHT_BROWSERS_PATH: '/srv/browsers' } })?.path).toBe(
      '/srv/browsers/chromium_headless_shell-1300/chrome-linux/headless_shell',
    );
    const mac = machine(['/Applications/Google Chrome.app/Contents/MacOS/Google Chrome']);
    expect(findInstalledChromium({ platform: 'darwin', ...mac, env: { PATH: '/usr/bin' } })?.path).toBe(
      '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
    );
    const macCache = machine(['/home/dev/Library/Caches/ms-playwright/chromium-1200/chrome-mac/Chromium.app/Contents/MacOS/Chromium']);
    expect(findInstalledChromium({ platform: 'darwin', ...macCache, env: {} })?.source).toBe("Playwright's cache (chromium-1200)");
  });

  it('finds nothing on a bare machine, and the error names the fix in one line', () => {
    expect(findInstalledChromium({ ...linux, ...machine([]), env: { PATH: '/usr/bin:/bin' } })).toBeNull();
    const message = noChromiumMessage('darwin', 'arm64');
    expect(message).not.toContain('\n');
    expect(message).toMatch(/darwin-arm64/);
    expect(message).toMatch(/install Chrome or Chromium .* or set CHROMIUM_PATH/);
  });
});
