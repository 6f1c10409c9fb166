import { Component, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

function Fallback({ onReset }: { onReset: () => void }) {
  const { t } = useTranslation();
  return (
    <div role="alert" className="error-boundary">
      <h2>{t('errors.title')}</h2>
      <p>{t('errors.body')}</p>
      <button type="button" onClick={onReset}>
        {t('errors.reload')}
      </button>
    </div>
  );
}

/** A crash in one area shows a plain message there instead of a blank window. */
export class ErrorBoundary extends Component<{ children: ReactNode; resetKey?: unknown }, { failed: boolean; key?: unknown }> {
  override state = { failed: false, key: this.props.resetKey };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  static getDerivedStateFromProps(props: { resetKey?: unknown }, state: { failed: boolean; key?: unknown }) {
    return props.resetKey !== state.key ? { failed: false, key: props.resetKey } : null;
  }

  override componentDidCatch(error: unknown) {
    console.error('A screen failed:', error instanceof Error ? error.message : error);
  }

  override render() {
    if (this.state.failed) return <Fallback onReset={() => this.setState({ failed: false })} />;
    return this.props.children;
  }
}
