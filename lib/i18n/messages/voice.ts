import { registerMessages } from '../messages';

/**
 * Texts of voice chat's bar (components/voice/voice-bar.tsx), which the hall downloads when someone
 * first presses "Join voice". The button itself is in ./cinema.ts.
 */
export const voice = {
  zh: {
    'voice.region': '语音聊天',
    'voice.joining': '正在打开麦克风…',
    'voice.leave': '退出语音（{count}）',
    'voice.mute': '闭麦',
    'voice.unmute': '取消闭麦',
    'voice.me': '{name}（我）',
    'voice.speaking': '正在说话',
    'voice.connecting': '连接中',
    'voice.peerFailed': '无法连接：此网络需要 TURN 中继服务器',
    'voice.mutePeer': '在本页静音 {name}',
    'voice.unmutePeer': '取消静音 {name}',
    'voice.volume': '{name} 的音量',
    'voice.full': '语音最多连接 8 人；通话中还有人未与你连接。',
    'voice.alone': '通话中只有你，等其他人加入语音。',
    'voice.duck': '有人说话时降低影片音量',
    'voice.failure.insecure': '语音需要 HTTPS（或 localhost）：浏览器只在安全的地址上提供麦克风。请用 https:// 打开本站。',
    'voice.failure.denied': '麦克风权限被拒绝：在浏览器的网站设置中允许麦克风，然后再试一次。',
    'voice.failure.no-microphone': '没有找到麦克风：连接一个麦克风后再试。',
    'voice.failure.busy': '麦克风正被其他程序使用：关闭它后再试。',
    'voice.failure.failed': '无法开始语音聊天，请再试一次。',
    'voice.lost': '你已没有语音权限，已退出语音。',
  },
  en: {
    'voice.region': 'Voice chat',
    'voice.joining': 'Opening the microphone…',
    'voice.leave': 'Leave voice ({count})',
    'voice.mute': 'Mute',
    'voice.unmute': 'Unmute',
    'voice.me': '{name} (me)',
    'voice.speaking': 'speaking',
    'voice.connecting': 'connecting',
    'voice.peerFailed': 'cannot connect: this network needs a TURN relay server',
    'voice.mutePeer': 'Mute {name} on this page',
    'voice.unmutePeer': 'Unmute {name}',
    'voice.volume': 'Volume of {name}',
    'voice.full': 'Voice connects up to 8 people; some in this call are not connected to you.',
    'voice.alone': 'You are the only one in the call; others appear when they join voice.',
    'voice.duck': 'Lower the movie while people talk',
    'voice.failure.insecure': 'Voice needs HTTPS (or localhost): browsers offer the microphone only on secure addresses. Open this site with https://.',
    'voice.failure.denied': 'The microphone was refused. Allow it in the browser’s site settings, then try again.',
    'voice.failure.no-microphone': 'No microphone found. Connect one, then try again.',
    'voice.failure.busy': 'The microphone is in use by another program. Close it, then try again.',
    'voice.failure.failed': 'Voice chat could not start. Try again.',
    'voice.lost': 'You no longer have the voice permission, so you left voice chat.',
  },
} as const;

registerMessages(voice);
