/**
 * An audio track's label in the info bar's "Audio" choice (an Emby or Jellyfin movie's, or a
 * converted movie's `mediaChoices`, docs/transcode.md).
 */

/**
 * The track's `name`, or, when the name is only its language tag (`eng`, `jpn`: a track without a
 * title), the language in the viewer's words for `locale` (English, 日语).
 */
export function trackLabel(track: { name: string; language: string }, locale: string): string {
  if (!track.language || track.name !== track.language) return track.name;
  try {
    return new Intl.DisplayNames([locale], { type: 'language' }).of(track.language) ?? track.name;
  } catch {
    return track.name;
  }
}
