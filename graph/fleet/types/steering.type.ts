import { Field, Float, ID, Int, ObjectType } from 'type-graphql';
import type { SteeringResult as SteeringResultView } from '../../../contracts/fleet';

@ObjectType('SteeringResult', { description: 'What a schedule or parameter write did.' })
export class SteeringResult implements SteeringResultView {
  @Field(() => [ID])
  deviceHashIds!: string[];

  @Field(() => Int, { description: 'Commands that had ended within the last 24 hours, left out.' })
  droppedCommands!: number;

  @Field(() => Float, { nullable: true, description: 'W of dangerous-action allowance left, when the write touched devices in production.' })
  remainingAllowance!: number | null;
}
