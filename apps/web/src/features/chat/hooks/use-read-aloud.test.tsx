import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fakeSpeechSynthesis } from '../../../test/utils';
import { MessageActions } from '../components/MessageActions';

function Two({ showA = true }: { showA?: boolean }) {
  return (
    <>
      {showA && <MessageActions message={{ id: 'a', type: 'ai', text: 'Message A' }} />}
      <MessageActions message={{ id: 'b', type: 'ai', text: 'Message B' }} />
    </>
  );
}

const buttons = () => {
  const all = screen.getAllByRole('button', { name: 'Read aloud' });
  return { a: all.length === 2 ? all[0]! : null, b: all[all.length - 1]! };
};

/** Lets the fake's queued `end` events fire and React settle. */
const flush = () => act(() => new Promise((r) => setTimeout(r, 10)));

describe('read aloud', () => {
  it("starting message B while A speaks: A stops, and A's end event does not cancel B", async () => {
    const synth = fakeSpeechSynthesis();
    const user = userEvent.setup();
    render(<Two />);
    const { a, b } = buttons();

    await user.click(a!);
    expect(synth.current?.text).toBe('Message A');
    expect(a).toHaveAttribute('aria-pressed', 'true');

    await user.click(b);
    await flush();
    // A was interrupted by B and shows it...
    expect(a).toHaveAttribute('aria-pressed', 'false');
    // ...and B is still being read: nothing cancelled it after it started.
    expect(synth.current?.text).toBe('Message B');
    expect(b).toHaveAttribute('aria-pressed', 'true');
    expect(synth.cancel).toHaveBeenCalledTimes(2);

    // B ends by itself: its toggle resets without another cancel.
    act(() => synth.finish());
    expect(b).toHaveAttribute('aria-pressed', 'false');
    expect(synth.cancel).toHaveBeenCalledTimes(2);
  });

  it('stopping B cancels B; toggling A again reads A from the start', async () => {
    const synth = fakeSpeechSynthesis();
    const user = userEvent.setup();
    render(<Two />);
    const { a, b } = buttons();
    await user.click(b);
    await user.click(b);
    await flush();
    expect(synth.current).toBeNull();
    expect(b).toHaveAttribute('aria-pressed', 'false');
    await user.click(a!);
    await flush();
    expect(synth.current?.text).toBe('Message A');
    expect(synth.spoken).toEqual(['Message B', 'Message A']);
  });

  it('a message removed from the screen stops only its own reading', async () => {
    const synth = fakeSpeechSynthesis();
    const user = userEvent.setup();
    const { rerender, unmount } = render(<Two />);
    const { a, b } = buttons();
    await user.click(a!);
    await user.click(b);
    // A unmounts before its `end` event arrives: B keeps speaking.
    rerender(<Two showA={false} />);
    await flush();
    expect(synth.current?.text).toBe('Message B');
    // B unmounts while speaking (New Topic): the reading stops.
    unmount();
    expect(synth.current).toBeNull();
  });
});
