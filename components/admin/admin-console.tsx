'use client';
/**
 * The site admin console `/admin` (docs/contract.md §4.6; docs/reference-client.md §1.7): overview,
 * users, rooms, site settings, administrators and the test mail, one section at a time. The section
 * is kept in the address's hash (`#users`), so a reload or a shared link opens the same one. Loaded
 * only on this route and only for site admins (components/admin/admin-page.tsx behind the guard).
 */
import { clsx } from 'clsx';
import { DoorOpen, LayoutDashboard, Mail, Settings, ShieldCheck, UserRound } from 'lucide-react';
import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { PageHeading } from '@/components/common/page-heading';
import { Skeleton } from '@/components/ui/skeleton';
import { useT, type MessageKey } from '@/lib/i18n';
import { OverviewSection, type OverviewTarget } from './overview-section';
import '@/lib/i18n/messages/admin';

// Each section but the overview is its own chunk, downloaded when first opened.
const UsersSection = lazy(() => import('./users-section').then((module) => ({ default: module.UsersSection })));
const RoomsSection = lazy(() => import('./rooms-section').then((module) => ({ default: module.RoomsSection })));
const SettingsSection = lazy(() => import('./settings-section').then((module) => ({ default: module.SettingsSection })));
const AdminsSection = lazy(() => import('./admins-section').then((module) => ({ default: module.AdminsSection })));
const EmailTestSection = lazy(() => import('./email-test-section').then((module) => ({ default: module.EmailTestSection })));

const SECTIONS = ['overview', 'users', 'rooms', 'settings', 'admins', 'email'] as const;
type Section = (typeof SECTIONS)[number];

const ICONS: Record<Section, ReactNode> = {
  overview: <LayoutDashboard />,
  users: <UserRound />,
  rooms: <DoorOpen />,
  settings: <Settings />,
  admins: <ShieldCheck />,
  email: <Mail />,
};

/** What is open: a section, with the filter or settings tab it was opened with. */
interface View {
  section: Section;
  filter?: 'pending' | '';
  tab?: 'email';
  /** Changes on every navigation, so that a section opened again starts from its new filter. */
  visit: number;
}

function sectionFromHash(): Section {
  const hash = typeof window === 'undefined' ? '' : window.location.hash.slice(1);
  return (SECTIONS as readonly string[]).includes(hash) ? (hash as Section) : 'overview';
}

export function AdminConsole() {
  const t = useT();
  const [view, setView] = useState<View>(() => ({ section: sectionFromHash(), visit: 0 }));
  const open = (section: Section, extra: Omit<View, 'section' | 'visit'> = {}) => {
    setView((current) => ({ section, ...extra, visit: current.visit + 1 }));
    window.history.replaceState(window.history.state, '', `${window.location.pathname}${window.location.search}${section === 'overview' ? '' : `#${section}`}`);
  };
  const openTarget = (target: OverviewTarget) => open(target.section, { filter: target.filter });
  // A link to another section of this page (or Back to one) changes only the hash.
  useEffect(() => {
    const follow = () => setView((current) => ({ section: sectionFromHash(), visit: current.visit + 1 }));
    window.addEventListener('hashchange', follow);
    return () => window.removeEventListener('hashchange', follow);
  }, []);

  return (
    <div className="space-y-6">
      <PageHeading title={t('route.admin')} description={t('admin.description')} />
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-[13rem_minmax(0,1fr)]">
        {/* Every section in sight on every width: a grid of buttons above the section, a column beside it. */}
        <nav aria-label={t('admin.nav.label')}>
          <ul className="grid grid-cols-2 gap-1 sm:grid-cols-3 lg:flex lg:flex-col">
            {SECTIONS.map((section) => (
              <li key={section} className="min-w-0">
                <button
                  type="button"
                  aria-current={view.section === section ? 'page' : undefined}
                  data-testid={`admin-nav-${section}`}
                  onClick={() => open(section)}
                  className={clsx(
                    'flex min-h-10 w-full cursor-pointer items-center gap-2 rounded-lg px-3 text-sm font-medium transition-colors [&_svg]:h-4 [&_svg]:w-4',
                    view.section === section
                      ? 'bg-brand-50 text-brand-700 dark:bg-brand-500/15 dark:text-brand-300'
                      : 'text-zinc-700 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800',
                  )}
                >
                  {ICONS[section]}
                  {t(`admin.nav.${section}` as MessageKey)}
                </button>
              </li>
            ))}
          </ul>
        </nav>
        <div className="min-w-0" key={`${view.section}-${view.visit}`}>
          <Suspense
            fallback={
              <div aria-busy="true" aria-label={t('admin.loading')}>
                <Skeleton className="h-64 rounded-2xl" />
              </div>
            }
          >
            {view.section === 'overview' ? <OverviewSection onOpen={openTarget} /> : null}
            {view.section === 'users' ? <UsersSection initialFilter={view.filter} /> : null}
            {view.section === 'rooms' ? <RoomsSection initialFilter={view.filter} /> : null}
            {view.section === 'settings' ? <SettingsSection initialTab={view.tab} /> : null}
            {view.section === 'admins' ? <AdminsSection /> : null}
            {view.section === 'email' ? <EmailTestSection onOpenSettings={() => open('settings', { tab: 'email' })} /> : null}
          </Suspense>
        </div>
      </div>
    </div>
  );
}
