'use client';
/**
 * Site settings of the admin console (docs/contract.md §4.6, §5.6; docs/reference-client.md §1.7
 * "Settings tabs"): one form per group, generated from the typed description of the settings
 * (lib/contract/site-settings.ts) with labels and help from the catalogue; settings a server sends
 * that this client does not describe are shown under their own names. Switches for booleans, a
 * choice list where the values are fixed, text otherwise; Save sends the changed values of that form
 * in one `POST /api/admin/settings` after checking each against its description, and shows a
 * problem at its field.
 */
import { clsx } from 'clsx';
import { RotateCcw, Save } from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import { Notice } from '@/components/common/notice';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Field, TextField } from '@/components/ui/field';
import { Select } from '@/components/ui/input';
import { Switch } from '@/components/ui/switch';
import { useSiteAdminActions, useSiteSettings } from '@/hooks/data/admin';
import { describeError } from '@/lib/i18n/error-text';
import { isOAuth2Provider, oauth2Label } from '@/lib/contract/oauth2';
import { isCompanionServer, OAUTH2_GROUP_PREFIX, SETTING_GROUPS, type SettingValue } from '@/lib/contract/site-settings';
import { publicSettingsAtom } from '@/lib/session';
import { useAtomValue } from 'jotai';
import { useLocale, useT, type MessageKey } from '@/lib/i18n';
import { notifyInfo, notifySuccess } from '@/lib/notify';
import { ListState } from './list-state';
import { draftOf, settingChanges, settingFields, type FieldProblem, type SettingField, type SettingsDraft } from './settings-form';
import '@/lib/i18n/messages/admin';

/** The console's tabs: the groups of §5.6, then every OAuth2 provider under one tab. */
const TABS = [...SETTING_GROUPS, 'oauth2'] as const;
type Tab = (typeof TABS)[number];

export function SettingsSection({ initialTab = 'user' }: { initialTab?: Tab }) {
  const t = useT();
  const [tab, setTab] = useState<Tab>(initialTab);
  const { data, error, isLoading, mutate } = useSiteSettings(tab);
  const groups = Object.entries(data ?? {}).sort(([a], [b]) => a.localeCompare(b));
  // A server without this group (the companion server has no RTMP settings) has nothing to show.
  const missing = error !== undefined && describeError(error).text === 'group not found';
  return (
    <section aria-labelledby="admin-settings-title" data-testid="admin-settings" className="space-y-4">
      <h2 id="admin-settings-title" className="text-lg font-semibold">
        {t('admin.nav.settings')}
      </h2>
      <div role="group" aria-label={t('admin.settings.groups')} className="flex gap-1.5 overflow-x-auto pb-1">
        {TABS.map((value) => (
          <button
            key={value}
            type="button"
            aria-pressed={tab === value}
            data-testid={`admin-settings-tab-${value}`}
            onClick={() => setTab(value)}
            className={clsx(
              'min-h-9 shrink-0 cursor-pointer rounded-full px-3 text-sm font-medium ring-1 ring-inset transition-colors',
              tab === value
                ? 'bg-brand-600 text-white ring-brand-600'
                : 'text-zinc-700 ring-zinc-300 hover:bg-zinc-100 dark:text-zinc-300 dark:ring-zinc-700 dark:hover:bg-zinc-800',
            )}
          >
            {t(`admin.settings.group.${value}` as MessageKey)}
          </button>
        ))}
      </div>
      <div>
        <ListState
          loading={isLoading}
          error={missing ? undefined : error}
          count={missing ? 0 : groups.length}
          empty={t('admin.settings.empty')}
          onRetry={() => void mutate()}
          page={1}
          pageSize={Math.max(groups.length, 1)}
          total={groups.length}
          onPageChange={() => undefined}
        >
          {/* Several groups share the width; one group uses all of it, its fields in two columns. */}
          <div className={clsx('grid gap-4', groups.length > 1 && 'xl:grid-cols-2')}>
            {groups.map(([group, values]) => (
              <SettingsCard key={group} group={group} values={values} wide={groups.length === 1} />
            ))}
          </div>
        </ListState>
      </div>
    </section>
  );
}

/** The provider of an `oauth2_<p>` group, or null. */
function providerOf(group: string): string | null {
  if (!group.startsWith(OAUTH2_GROUP_PREFIX)) return null;
  const provider = group.slice(OAUTH2_GROUP_PREFIX.length);
  return isOAuth2Provider(provider) ? provider : null;
}

export interface SettingsCardProps {
  group: string;
  values: Record<string, SettingValue>;
  /** The only card on the page: on wide screens its fields take two columns. */
  wide?: boolean;
}

/** One group's form; a save reads the settings again (hooks/data/admin.ts). */
export function SettingsCard({ group, values, wide = false }: SettingsCardProps) {
  const t = useT();
  const actions = useSiteAdminActions();
  const [locale] = useLocale();
  const fields = useMemo(() => settingFields(group, values), [group, values]);
  const stored = useMemo(() => draftOf(fields), [fields]);
  const [draft, setDraft] = useState<SettingsDraft>(stored);
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const companion = isCompanionServer(useAtomValue(publicSettingsAtom));
  // A reload (after saving, or another admin's change) replaces the draft.
  useEffect(() => setDraft(stored), [stored]);

  const provider = providerOf(group);
  const title = provider
    ? oauth2Label(provider, locale)
    : (SETTING_GROUPS as readonly string[]).includes(group)
      ? t(`admin.settings.group.${group}` as MessageKey)
      : group;
  const dirty = fields.some((field) => draft[field.name] !== stored[field.name]);

  const problemText = (problem: FieldProblem): string => {
    switch (problem.kind) {
      case 'range':
        return t('admin.settings.invalid.range', { min: problem.min, max: problem.max });
      case 'choice':
        return t('admin.settings.invalid.choice', { choices: problem.choices.join(', ') });
      case 'exclusive':
        return t('admin.settings.exclusive');
      default:
        return t(`admin.settings.invalid.${problem.kind}` as MessageKey);
    }
  };

  const save = async () => {
    setFailure(null);
    const { patch, problems: found } = settingChanges(fields, draft);
    const texts = Object.fromEntries(Object.entries(found).map(([name, problem]) => [name, problemText(problem)]));
    setProblems(texts);
    if (Object.keys(texts).length > 0) {
      document.getElementById(`setting-${Object.keys(texts)[0]}`)?.focus();
      return;
    }
    if (Object.keys(patch).length === 0) {
      notifyInfo(t('admin.settings.unchanged'));
      return;
    }
    setSaving(true);
    try {
      await actions.updateSiteSettings(patch);
      notifySuccess(t('admin.settings.saved'));
    } catch (error) {
      const { message } = describeError(error);
      const name = /^setting (\S+) /.exec(error instanceof Error ? error.message : '')?.[1];
      if (name && fields.some((field) => field.name === name)) setProblems({ [name]: message });
      else setFailure(message);
    } finally {
      setSaving(false);
    }
  };

  const labelOf = (field: SettingField): { label: string; help: string } => {
    if (!field.known) return { label: field.name, help: t('admin.settings.unknown') };
    if (provider) {
      const suffix = field.name.slice(`oauth2_${provider}_`.length);
      const params = { provider: oauth2Label(provider, locale), id: provider };
      return { label: t(`admin.setting.oauth2.${suffix}` as MessageKey, params), help: t(`admin.setting.oauth2.${suffix}.help` as MessageKey, params) };
    }
    const unit = field.spec.unit ? ` (${t(`admin.unit.${field.spec.unit}` as MessageKey)})` : '';
    const help = t(`admin.setting.${field.name}.help` as MessageKey);
    // What only a SyncTV server uses is kept here, and says it changes nothing on this server.
    const unused = field.spec.syncTvOnly && companion ? ` ${t('admin.settings.syncTvOnly')}` : '';
    return { label: `${t(`admin.setting.${field.name}` as MessageKey)}${unit}`, help: `${help}${unused}` };
  };

  return (
    <Card className="p-5">
      <form
        data-testid={`settings-card-${group}`}
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void save();
        }}
        className="space-y-3"
      >
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h3 className="text-base font-semibold">{title}</h3>
          {dirty ? <Badge tone="amber">{t('admin.settings.unsaved')}</Badge> : null}
        </div>
        <div className={clsx('divide-y divide-zinc-100 dark:divide-zinc-800', wide && 'xl:grid xl:grid-cols-2 xl:gap-x-8 xl:divide-y-0')}>
          {fields.map((field) => {
            const { label, help } = labelOf(field);
            const id = `setting-${field.name}`;
            const value = draft[field.name];
            const problem = problems[field.name];
            const change = (next: boolean | string) => {
              setDraft((current) => ({ ...current, [field.name]: next }));
              setProblems(({ [field.name]: _dropped, ...rest }) => rest);
            };
            if (field.spec.type === 'bool') {
              return (
                <div key={field.name} className="py-1">
                  <Switch id={id} testId={id} checked={value === true} onChange={change} label={label} hint={help} busy={saving} />
                  {problem ? (
                    <p role="alert" className="pb-2 text-sm text-red-600 dark:text-red-400">
                      {problem}
                    </p>
                  ) : null}
                </div>
              );
            }
            const readOnly = field.spec.readOnly === true;
            return (
              <div key={field.name} className="py-3">
                {field.spec.choices ? (
                  <Field id={id} label={label} hint={help} error={problem}>
                    <Select id={id} data-testid={id} value={String(value)} aria-describedby={problem ? `${id}-error` : `${id}-hint`} onChange={(event) => change(event.target.value)}>
                      {field.spec.choices.map((choice, index) => {
                        // A choice this server cannot use (a hardware encoder without its device) is shown, disabled, with why.
                        const listed = field.spec.choicesAvailableIn ? String(draft[field.spec.choicesAvailableIn] ?? '').split(/,\s*/) : null;
                        const usable = !listed || index === 0 || listed.includes(choice) || value === choice;
                        return (
                          <option key={choice} value={choice} disabled={!usable}>
                            {usable ? choice : t('admin.settings.choiceUnavailable', { choice })}
                          </option>
                        );
                      })}
                    </Select>
                  </Field>
                ) : field.spec.list ? (
                  <Field id={id} label={label} hint={help} error={problem}>
                    <textarea
                      id={id}
                      data-testid={id}
                      rows={3}
                      value={String(value)}
                      aria-invalid={problem ? true : undefined}
                      aria-describedby={problem ? `${id}-error` : `${id}-hint`}
                      onChange={(event) => change(event.target.value)}
                      className="block w-full rounded-lg border border-zinc-300 bg-white px-3 py-2 text-sm dark:border-zinc-700 dark:bg-zinc-900"
                    />
                  </Field>
                ) : (
                  <TextField
                    id={id}
                    label={
                      readOnly ? (
                        <span className="inline-flex items-center gap-2">
                          {label} <Badge>{t('admin.settings.readOnly')}</Badge>
                        </span>
                      ) : (
                        label
                      )
                    }
                    hint={help}
                    error={problem}
                    value={String(value)}
                    readOnly={readOnly}
                    disabled={readOnly}
                    type={field.spec.secret ? 'password' : 'text'}
                    inputMode={field.spec.type === 'int' ? 'numeric' : undefined}
                    autoComplete={field.spec.secret ? 'new-password' : 'off'}
                    spellCheck={false}
                    onChange={(event) => change(event.target.value)}
                  />
                )}
              </div>
            );
          })}
        </div>
        {failure ? <Notice tone="error">{failure}</Notice> : null}
        <div className="flex flex-wrap justify-end gap-2 pt-1">
          <Button variant="ghost" size="sm" disabled={!dirty || saving} onClick={() => {
            setDraft(stored);
            setProblems({});
            setFailure(null);
          }}>
            <RotateCcw className="h-4 w-4" aria-hidden />
            {t('admin.settings.reset')}
          </Button>
          <Button type="submit" size="sm" data-testid={`settings-save-${group}`} loading={saving} disabled={saving}>
            <Save className="h-4 w-4" aria-hidden />
            {t('admin.save')}
          </Button>
        </div>
      </form>
    </Card>
  );
}
