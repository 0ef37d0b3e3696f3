#!/usr/bin/env node
// Makes sure the system packages that real-WebGPU tests and the samples rely on are present:
//   /usr/bin/chromium                          headless Chromium (WebGPU on SwiftShader, Path 2 in TESTING.md)
//   /usr/lib/chromium/vk_swiftshader_icd.json  SwiftShader Vulkan driver that Dawn in Node uses (Path 1)
//   libvulkan.so.1                             the Vulkan loader that Dawn needs
// When all are present this returns at once (no apt call). When something is missing it installs it as root,
// or prints the command to run and exits 1. It does not touch node_modules: `npm install` does that.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

const SERVE = process.argv.includes('--serve');
const INSTALL = 'apt-get update && apt-get install -y chromium libvulkan1';

const CHROMIUM = '/usr/bin/chromium';
const SWIFTSHADER_ICD = '/usr/lib/chromium/vk_swiftshader_icd.json';
const VULKAN_LOADER_PATHS = [
  '/usr/lib/x86_64-linux-gnu/libvulkan.so.1',
  '/lib/x86_64-linux-gnu/libvulkan.so.1',
  '/usr/lib/aarch64-linux-gnu/libvulkan.so.1',
  '/lib/aarch64-linux-gnu/libvulkan.so.1',
  '/usr/lib64/libvulkan.so.1',
  '/usr/lib/libvulkan.so.1',
  '/usr/local/lib/libvulkan.so.1',
];

function has_vulkan_loader() {
  if (VULKAN_LOADER_PATHS.some((p) => existsSync(p))) return true;
  for (const ldconfig of ['/sbin/ldconfig', '/usr/sbin/ldconfig', 'ldconfig']) {
    const r = spawnSync(ldconfig, ['-p'], { encoding: 'utf8' });
    if (r.status === 0 && typeof r.stdout === 'string') return /\blibvulkan\.so\.1\b/.test(r.stdout);
  }
  return false;
}

function missing_parts() {
  const missing = [];
  if (!existsSync(CHROMIUM)) missing.push(`${CHROMIUM} (package chromium)`);
  if (!existsSync(SWIFTSHADER_ICD)) missing.push(`${SWIFTSHADER_ICD} (package chromium)`);
  if (!has_vulkan_loader()) missing.push('libvulkan.so.1 (package libvulkan1)');
  return missing;
}

const missing = missing_parts();
if (missing.length === 0) process.exit(0);

console.error(`[ensure-system] missing system packages${SERVE ? ' (needed to view the samples with WebGPU)' : ''}:`);
for (const m of missing) console.error(`  - ${m}`);

const is_root = typeof process.getuid === 'function' && process.getuid() === 0;
if (!is_root) {
  console.error('[ensure-system] run this, then try again:');
  console.error(`  sudo apt-get update && sudo apt-get install -y chromium libvulkan1`);
  process.exit(1);
}

console.error(`[ensure-system] installing as root: ${INSTALL}`);
const r = spawnSync('/bin/sh', ['-c', INSTALL], {
  stdio: 'inherit',
  env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
});
if (r.status !== 0) {
  console.error(`[ensure-system] '${INSTALL}' failed with exit status ${r.status ?? r.signal}`);
  process.exit(1);
}
const still_missing = missing_parts();
if (still_missing.length > 0) {
  console.error('[ensure-system] still missing after install:');
  for (const m of still_missing) console.error(`  - ${m}`);
  process.exit(1);
}
console.error('[ensure-system] system packages installed');
