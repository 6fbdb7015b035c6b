'use client';
/**
 * How to host a video yourself, in a drawer the add-movie form opens beside itself (docs/hosting.md in
 * English, for operators): what a host must offer (Range, CORS, content types, HTTPS, codecs), the
 * common hosts, the proxy and its limit to public addresses, and what each of the hall's messages
 * means. Downloaded when first opened.
 */
import { Drawer } from '@/components/ui/drawer';
import { useT, type MessageKey } from '@/lib/i18n';
import '@/lib/i18n/messages/help';

/** What the host must offer, in the guide's order: the heading and body keys of each. */
const NEEDS = ['range', 'cors', 'types', 'https', 'codecs'] as const;
/** The hall's messages and what helps. */
const SAYS = ['noRange', 'noCors', 'unreachable', 'httpError', 'notMedia', 'mixed', 'codec'] as const;

const code = 'rounded bg-zinc-100 px-1 py-0.5 font-mono text-[0.85em] dark:bg-zinc-800';
const heading = 'text-base font-semibold text-zinc-900 dark:text-zinc-100';

export interface HostingGuideProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

export default function HostingGuide({ open, onOpenChange }: HostingGuideProps) {
  const t = useT();
  return (
    <Drawer open={open} onOpenChange={onOpenChange} title={t('help.hosting.title')} closeLabel={t('help.hosting.close')} testId="hosting-guide">
      <article className="space-y-6 text-sm leading-relaxed text-zinc-700 dark:text-zinc-300">
        <p>{t('help.hosting.intro')}</p>

        <section aria-labelledby="hosting-needs" className="space-y-3">
          <h3 id="hosting-needs" className={heading}>
            {t('help.hosting.needs')}
          </h3>
          <dl className="space-y-3">
            {NEEDS.map((need) => (
              <div key={need}>
                <dt className="font-medium text-zinc-900 dark:text-zinc-100">{t(`help.hosting.${need}` as MessageKey)}</dt>
                <dd>{t(`help.hosting.${need}Body` as MessageKey)}</dd>
              </div>
            ))}
          </dl>
        </section>

        <section aria-labelledby="hosting-hosts" className="space-y-3">
          <h3 id="hosting-hosts" className={heading}>
            {t('help.hosting.hosts')}
          </h3>
          <ul className="list-disc space-y-2 pl-5">
            <li>
              <code className={code}>python3 -m http.server</code> — {t('help.hosting.python')}
            </li>
            <li>
              <code className={code}>npx http-server --cors</code> {t('help.hosting.httpServer')}
            </li>
            <li>{t('help.hosting.nginx')}</li>
          </ul>
          <pre className="overflow-x-auto rounded-lg bg-zinc-100 p-3 font-mono text-xs dark:bg-zinc-950">{`location /videos/ {
    add_header Access-Control-Allow-Origin * always;
    add_header Access-Control-Expose-Headers "Content-Range, Accept-Ranges, Content-Length" always;
}`}</pre>
        </section>

        <section aria-labelledby="hosting-proxy" className="space-y-3">
          <h3 id="hosting-proxy" className={heading}>
            {t('help.hosting.proxy')}
          </h3>
          <p>{t('help.hosting.proxyBody')}</p>
          <p>{t('help.hosting.proxyRemedy')}</p>
          <p>{t('help.hosting.proxyLocal')}</p>
        </section>

        <section aria-labelledby="hosting-says" className="space-y-3">
          <h3 id="hosting-says" className={heading}>
            {t('help.hosting.says')}
          </h3>
          <div className="overflow-x-auto">
            <table className="w-full border-collapse text-left">
              <thead>
                <tr className="border-b border-zinc-200 dark:border-zinc-800">
                  <th scope="col" className="py-2 pr-4 font-medium text-zinc-900 dark:text-zinc-100">
                    {t('help.hosting.saysMessage')}
                  </th>
                  <th scope="col" className="py-2 font-medium text-zinc-900 dark:text-zinc-100">
                    {t('help.hosting.saysHelp')}
                  </th>
                </tr>
              </thead>
              <tbody>
                {SAYS.map((message) => (
                  <tr key={message} className="border-b border-zinc-100 align-top dark:border-zinc-800">
                    <td className="py-2 pr-4">{t(`help.hosting.${message}` as MessageKey)}</td>
                    <td className="py-2">{t(`help.hosting.${message}Help` as MessageKey)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      </article>
    </Drawer>
  );
}
