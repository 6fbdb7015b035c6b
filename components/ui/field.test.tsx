import { render, screen } from '@testing-library/react';
import { TextField } from './field';

describe('TextField', () => {
  it('labels the input, gives it the id as test id, and describes it with its hint', () => {
    render(<TextField id="room-password" label="Password" hint="Leave empty for an open room" type="password" />);
    const input = screen.getByLabelText('Password');
    expect(input).toHaveAttribute('data-testid', 'room-password');
    expect(input).toHaveAttribute('type', 'password');
    expect(input).not.toHaveAttribute('aria-invalid');
    expect(input).toHaveAccessibleDescription('Leave empty for an open room');
  });

  it('marks the input invalid and describes it with the error instead of the hint', () => {
    render(<TextField id="room-name" label="Name" hint="Shown in the room list" error="Too long" />);
    const input = screen.getByLabelText('Name');
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveAccessibleDescription('Too long');
    expect(screen.getByRole('alert')).toHaveTextContent('Too long');
    expect(screen.queryByText('Shown in the room list')).toBeNull();
  });

  it('passes a ref and event handlers through to the input (react-hook-form register)', () => {
    const ref = { current: null as HTMLInputElement | null };
    render(<TextField id="url" label="URL" name="url" ref={ref} onChange={() => undefined} />);
    expect(ref.current).toBe(screen.getByLabelText('URL'));
    expect(ref.current).toHaveAttribute('name', 'url');
  });
});
